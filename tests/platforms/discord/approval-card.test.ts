import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_REASON_CHARS } from '../../../src/core/approvals/approvals.js';
import { parseRunActionId } from '../../../src/platforms/shared/run-actions.js';
import { COMPONENTS_V2_RULES } from '../../fakes/discord-components-v2.js';
import type { FakeMessage } from '../../fakes/discord-server.js';
import { waitUntil } from '../../helpers/wait-until.js';
import { stdioTestServer, writeMcpJson } from '../../mcp/mcp-fixture.js';
import { askForApproval, buttonIds, press } from './approval-steps.js';
import { type DiscordBed, startDiscordBed } from './harness.js';

// biome-ignore lint/suspicious/noExplicitAny: Discord payloads are loose JSON.
type Json = any;

const V2 = COMPONENTS_V2_RULES.flag;
const ECHO = { toolCalls: [{ name: 'test__echo', arguments: { text: 'hi @everyone ```' } }] };
/** Arguments far past anything one message holds, full of what could close a code block early. */
const HUGE = { text: `${'```ping @everyone '.repeat(3_000)}<@123>` };

/** Every component of a message, nested ones included. */
const all = (components: Json[]): Json[] => components.flatMap((c) => [c, ...all(c.components ?? [])]);
/** The texts of a card's text displays, in order. */
const texts = (message: FakeMessage): string[] =>
  all(message.components)
    .filter((c) => c.type === 10)
    .map((c) => String(c.content));
/** What Discord counts against a components v2 message's limits. */
const withinLimits = (message: FakeMessage) => {
  expect(message.flags & V2).toBe(V2);
  expect(message.content).toBe('');
  expect(all(message.components).length).toBeLessThanOrEqual(COMPONENTS_V2_RULES.components);
  expect(texts(message).join('').length).toBeLessThanOrEqual(COMPONENTS_V2_RULES.text);
};

describe('Discord: approval prompts as components v2 cards (DISCORD_COMPONENTS_V2)', () => {
  let bed: DiscordBed | undefined;
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'thinkthread-discord-approval-card-'));
  });
  afterEach(async () => {
    await bed?.close();
    bed = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  const start = (env: Record<string, string> = {}) =>
    startDiscordBed({
      MCP_CONNECT_TIMEOUT_MS: '60000',
      MCP_CONFIG: writeMcpJson(dir, { test: stdioTestServer() }),
      DISCORD_COMPONENTS_V2: 'true',
      ...env,
    });
  const answerOf = (reply: FakeMessage, text: string) =>
    waitUntil(() => reply.content === text, { what: `the answer "${text}" (now "${reply.content}")` });
  const refused = () => bed!.discord.calls.filter((c) => c.status >= 400);

  it('shows the tool, its arguments as code and Approve / Deny inside one container; the decision edits that card', async () => {
    bed = await start();
    bed.model.script(ECHO, { content: 'Echoed.' });
    const { reply, approval } = await askForApproval(bed);
    withinLimits(approval);
    expect(approval.components).toHaveLength(1);
    const [card] = approval.components;
    expect(card.type).toBe(17);
    expect(card.components.map((c: Json) => c.type)).toEqual([10, 10, 10, 1]);
    const [header, args, who] = texts(approval);
    expect(header).toBe('**Approval needed:** `test__echo`');
    expect(args).toBe('```\n{\n  "text": "hi @everyone `\u200b``"\n}\n```');
    expect(who).toMatch(/^-# The asker or an admin decides; unanswered, it is denied <t:\d+:R>\.$/);
    const [approveId, denyId] = buttonIds(approval);
    expect(parseRunActionId(approveId!)?.action).toBe('approve');
    expect(parseRunActionId(denyId!)?.action).toBe('deny');
    expect(buttonIds(approval)).toHaveLength(2);
    const posted = bed.discord.calls.find(
      (c) => c.method === 'POST' && JSON.stringify(c.body ?? {}).includes('"Approve"'),
    );
    expect(posted?.body.allowed_mentions).toMatchObject({ parse: [] });

    expect((await press(bed, approval, approveId!, bed.alice)).type).toBe(6);
    await answerOf(reply, 'Echoed.');
    await waitUntil(() => buttonIds(approval).length === 0, { what: 'the buttons to go' });
    // The same message, still a card: the prompt's texts and who decided, no buttons.
    withinLimits(approval);
    expect(texts(approval)).toEqual([header, args, who, '**test__echo approved by alice.**']);
    expect(all(approval.components).some((c) => c.type === 1 || c.type === 2)).toBe(false);
    expect(refused()).toEqual([]);
  });

  it('keeps huge arguments and a long reason within 4,000 characters: cut with a note, the whole JSON one press away', async () => {
    bed = await start();
    bed.model.script({ toolCalls: [{ name: 'test__echo', arguments: HUGE }] }, { content: 'Did not echo.' });
    const { reply, approval } = await askForApproval(bed);
    withinLimits(approval);
    const args = texts(approval)[1]!;
    const total = JSON.stringify(HUGE, null, 2).length.toLocaleString('en');
    expect(args).toMatch(
      new RegExp(`^\`\`\`\\n[\\s\\S]*…\\n\`\`\`\\n-# arguments cut here: ${total} characters in all$`),
    );
    // Nothing inside closes the code block early.
    expect(args.match(/```/g)).toHaveLength(2);
    const ids = buttonIds(approval);
    expect(ids.map((id) => parseRunActionId(id)?.action)).toEqual(['approve', 'deny', 'args']);
    const whole = await press(bed, approval, ids[2]!, bed.alice);
    expect(whole.files?.map((f) => f.filename)).toEqual(['arguments.json']);

    expect((await press(bed, approval, ids[1]!, bed.alice)).type).toBe(9);
    const reason = `${'no, and here is why at length. '.repeat(40)}`.slice(0, MAX_REASON_CHARS);
    const { id } = bed.discord.submitModal({
      message: approval,
      customId: ids[1]!,
      user: bed.alice,
      values: { reason },
    });
    await bed.discord.waitForCall((c) => c.path.startsWith(`/interactions/${id}/`));
    await answerOf(reply, 'Did not echo.');
    await waitUntil(() => buttonIds(approval).length === 0, { what: 'the buttons to go' });
    withinLimits(approval);
    expect(texts(approval)[1]).toBe(args); // the arguments shown do not shrink for the decision
    expect(texts(approval).at(-1)).toMatch(/^\*\*test__echo denied by alice: no, and here is why/);
    expect(refused()).toEqual([]);
  });

  it('sends the classic message with DISCORD_COMPONENTS_V2=false', async () => {
    bed = await start({ DISCORD_COMPONENTS_V2: 'false' });
    bed.model.script(ECHO, { content: 'Echoed.' });
    const { reply, approval } = await askForApproval(bed);
    expect(approval.flags & V2).toBe(0);
    expect(approval.content).toMatch(/^\*\*Approval needed:\*\* `test__echo`\n```/);
    expect(approval.components.map((c: Json) => c.type)).toEqual([1]);
    await press(bed, approval, buttonIds(approval)[0]!, bed.alice);
    await answerOf(reply, 'Echoed.');
    expect(approval.content).toMatch(/\n\*\*test__echo approved by alice\.\*\*$/);
  });
});
