import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createDeduper, DEDUPE_TTL_MS } from '../../../src/core/runs/delivery-dedupe.js';
import { conversationKey } from '../../../src/platforms/slack/conversation-key.js';
import { markdownToMessages, SECTION_CHARS } from '../../../src/platforms/slack/limits.js';
import { safeMarkdown } from '../../../src/platforms/slack/native-markdown.js';
import { questionFromSlack } from '../../../src/platforms/slack/slack-text.js';
import { testConfig } from '../../helpers/config.js';

describe('questionFromSlack', () => {
  it('drops the bot mention and turns Slack markup into readable text', () => {
    expect(
      questionFromSlack(
        '<@UBOT> ask <@U2|bob> in <#C1|general> about <https://x.io/a|this> &amp; <https://y.io> &lt;3 <!here>',
        'UBOT',
      ),
    ).toBe('ask @bob in #general about this (https://x.io/a) & https://y.io <3 @here');
  });

  it('is empty for a bare mention', () => {
    expect(questionFromSlack('<@UBOT>  ', 'UBOT')).toBe('');
  });
});

describe('conversationKey', () => {
  it('is per channel, and per thread for questions asked in a thread', () => {
    expect(conversationKey('T1', 'C1')).toBe('slack:T1:C1');
    expect(conversationKey('T1', 'C1', '1700000000.000100')).toBe('slack:T1:C1:1700000000.000100');
  });
});

describe('createDeduper', () => {
  it('lets each delivery through once until it is forgotten', () => {
    let now = 0;
    const dedupe = createDeduper(() => now);
    expect(dedupe.firstTime('event:Ev1', 'message:C1:1')).toBe(true);
    expect(dedupe.firstTime('event:Ev1', 'message:C1:1')).toBe(false); // a retry
    expect(dedupe.firstTime('event:Ev2', 'message:C1:1')).toBe(false); // the same message, another event
    expect(dedupe.firstTime('event:Ev3', 'message:C1:2')).toBe(true);
    now += DEDUPE_TTL_MS + 1;
    expect(dedupe.firstTime('event:Ev3', 'message:C1:2')).toBe(true);
  });
});

describe('markdownToMessages', () => {
  it('closes and reopens a code block cut between sections, each section within the limit', () => {
    const code = Array.from({ length: 400 }, (_, i) => `line ${i} < ${i + 1};`).join('\n');
    const messages = markdownToMessages(`Here:\n\n\`\`\`ts\n${code}\n\`\`\``);
    const sections = messages.flatMap((m) => m.blocks.map((b) => (b.type === 'section' ? b.text!.text : '')));
    expect(sections.length).toBeGreaterThan(1);
    for (const text of sections) {
      expect(text.length).toBeLessThanOrEqual(SECTION_CHARS);
      expect(text.match(/```/g)!.length % 2).toBe(0); // every section's code block is closed
    }
    expect(sections.join('\n')).toContain('line 399 &lt; 400;');
  });

  it('puts a context line above the first message only', () => {
    const messages = markdownToMessages('word '.repeat(5000), '<@U1> asked: x');
    expect(messages.length).toBeGreaterThan(1);
    expect(messages[0]!.blocks[0]).toMatchObject({ type: 'context' });
    expect(messages[1]!.blocks.some((b) => b.type === 'context')).toBe(false);
  });
});

describe('slack-app-manifest.yml', () => {
  const manifest = readFileSync(new URL('../../../slack-app-manifest.yml', import.meta.url), 'utf8');
  const listed = (pattern: RegExp) => [...manifest.matchAll(pattern)].map((m) => m[1]);

  it('declares the commands, events and scopes the adapter relies on', () => {
    const config = testConfig();
    expect(listed(/^\s+- command: (\S+)/gm)).toEqual([
      config.SLACK_ASK_COMMAND,
      config.SLACK_RESET_COMMAND,
      config.SLACK_MEMORY_COMMAND,
      config.SLACK_USAGE_COMMAND,
      config.SLACK_TOOLS_COMMAND,
      config.SLACK_SETTINGS_COMMAND,
      config.SLACK_KNOWLEDGE_COMMAND,
      config.SLACK_SCHEDULE_COMMAND,
    ]);
    const events = manifest.slice(manifest.indexOf('bot_events:'));
    expect(events).toMatch(/- app_mention\n\s+- message\.im/);
    // Slack's own stop on an answer reaches the bot only as this event (events reference, 2026-08).
    expect(events).toMatch(/^\s+- agent_session_stopped(\s|$)/m);
    // Follow-ups in threads arrive only as channel messages; a thanks gets a reaction (FOLLOW_THREADS).
    for (const event of ['message.channels', 'message.groups', 'message.mpim'])
      expect(events).toMatch(new RegExp(`^\\s+- ${event.replace('.', '\\.')}(\\s|$)`, 'm'));
    // A title a person gave a session is kept: the rename reaches the bot only as this event.
    expect(events).toMatch(/^\s+- agent_session_title_changed(\s|$)/m);
    const history = ['channels:history', 'groups:history', 'im:history', 'mpim:history', 'files:read'];
    for (const scope of [
      'app_mentions:read',
      'chat:write',
      'commands',
      'users:read',
      'reactions:write',
      ...history,
    ]) {
      expect(manifest).toMatch(new RegExp(`^\\s+- ${scope}(\\s|$)`, 'm'));
    }
  });

  it('lists each bot scope once', () => {
    const bot = manifest.slice(manifest.indexOf('    bot:'), manifest.indexOf('settings:'));
    const scopes = [...bot.matchAll(/^\s+- ([\w:.]+)/gm)].map((m) => m[1]);
    expect(scopes.length).toBeGreaterThan(5);
    expect(new Set(scopes).size).toBe(scopes.length);
  });

  it('enables interactivity, without which Slack never reports a press on Stop or 👍 / 👎', () => {
    expect(manifest).toMatch(/^ {2}interactivity:\n(?:\s+#.*\n)*\s+is_enabled: true$/m);
  });
});

describe('safeMarkdown (native streaming)', () => {
  const hostile =
    'Hi <!channel> and <@U1>, see <#C1> & @here or @Everyone.\u0007 **bold** <https://x.io|link> a<b';

  it('keeps mentions and broadcasts from notifying anyone, and the rest as written', () => {
    const safe = safeMarkdown(hostile);
    expect(safe).not.toMatch(/<[!@#]|@(channel|here|everyone)/i);
    expect(safe.replace(/\u200B/g, '')).toBe(hostile.replace('\u0007', ''));
  });

  it('gives the same text whether applied whole or to pieces cut at whitespace, as streaming does', () => {
    const pieces = hostile.split(/(?<=\s)/);
    expect(pieces.length).toBeGreaterThan(5);
    expect(pieces.map(safeMarkdown).join('')).toBe(safeMarkdown(hostile));
  });
});
