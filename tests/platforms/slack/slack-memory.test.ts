import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ADMIN,
  ALICE,
  ask,
  CHANNEL,
  mention,
  type SlackHarness,
  startSlackHarness,
} from './slack-harness.js';

const BOB = 'UBOB';
const OTHER = 'C0002';

describe('Slack: /memory notes, remember, forget and forget-me', () => {
  let h: SlackHarness;
  beforeEach(async () => {
    h = await startSlackHarness('http', { env: { SLACK_STREAMING: 'edit' } });
    h.slack.addUser(BOB, { name: 'bob', display_name: 'Bob' });
  });
  afterEach(async () => {
    await h.close();
  });

  /** Runs `/memory <text>` as `user` in `channel` and returns the private reply. */
  const memory = async (text: string, user = ALICE, channel = CHANNEL) => {
    const before = h.slack.responses.length;
    const delivered = await h.command('/memory', text, { user, channel });
    expect(delivered.status).toBe(200);
    await h.slack.waitFor(() => h.slack.responses.length > before);
    const reply = h.slack.responses.at(-1)!.body as { response_type: string; text: string };
    expect(reply.response_type).toBe('ephemeral');
    return reply.text;
  };

  it('empty text keeps the memory report; unknown words get the usage line', async () => {
    expect(await memory('')).toMatch(/^\*What I remember of this channel\*/);
    expect(await memory('sing')).toMatch(/^Usage: \/memory \(what I remember here\), \/memory notes/);
  });

  it('a note about me made in one channel shows in /memory notes and in the prompt in another', async () => {
    expect(await memory('remember me: prefers metric units')).toMatch(/Noted about you/);
    expect(await memory('remember deploys happen on Tuesdays')).toBe(
      'Noted for this channel, as data the bot reads, not an instruction.',
    );

    const there = await memory('notes', ALICE, OTHER);
    expect(there).toContain('1. (about you) [data, by slack:T0001:UALICE] prefers metric units');
    expect(there).not.toContain('Tuesdays');

    h.model.script({ content: 'About 5 km.' }, { content: 'Three miles.' });
    await ask(h, mention('how far is it?', { channel: OTHER }));
    const prompt = JSON.stringify(h.model.requests[0]!.body.messages);
    expect(prompt).toContain('prefers metric units');
    expect(prompt).not.toContain('Tuesdays');

    // Another person in that channel neither sees it nor has it in their prompt.
    expect(await memory('notes', BOB, OTHER)).toMatch(/No notes/);
    await ask(h, mention('how far is it?', { channel: OTHER, user: BOB }));
    expect(JSON.stringify(h.model.requests[1]!.body.messages)).not.toContain('metric');
  });

  it('another person cannot delete someone’s note; its author and a workspace admin can', async () => {
    await memory('remember me: my badge is 4411');
    await memory('remember release freeze starts June 2 &amp; lasts &lt;1 week');
    expect(await memory('notes')).toMatch(
      /1\. \[data, by slack:T0001:UALICE\] release freeze starts June 2 &amp; lasts &lt;1 week[\s\S]*2\. \(about you\) \[data, by slack:T0001:UALICE\] my badge is 4411/,
    );

    expect(await memory('notes', BOB)).not.toContain('4411');
    expect(await memory('forget 1', BOB)).toMatch(/Only its author or an admin/);
    expect(await memory('forget 2', BOB)).toMatch(/There is no note 2/);
    expect(await memory('notes')).toContain('4411');

    expect(await memory('forget two')).toMatch(/^Usage: \/memory forget &lt;n&gt;/);
    expect(await memory('forget 2')).toBe('Forgotten: my badge is 4411');
    expect(await memory('forget 1', ADMIN)).toBe(
      'Forgotten: release freeze starts June 2 &amp; lasts &lt;1 week',
    );
    expect(await memory('notes')).toMatch(/No notes/);
  });

  it('forget-me removes one’s own turns, here or everywhere; only admins may name someone', async () => {
    h.model.script({ content: 'Noted.' }, { content: 'Noted too.' }, { content: 'Hi Bob.' });
    await ask(h, mention('my address is 1 Elm St'));
    await ask(h, mention('my phone is 555-0100', { channel: OTHER }));
    await ask(h, mention('hello', { user: BOB }));

    expect(await memory(`forget-me <@${ALICE}|alice>`, BOB)).toMatch(/Only admins can make the bot forget/);
    expect(await memory('forget-me')).toMatch(/^Forgotten in this channel: 1 question and its answer, /);
    expect(await memory('forget-me --everywhere')).toMatch(
      /^Forgotten in every channel: 1 question and its answer, /,
    );
    expect(await memory(`forget-me <@${BOB}>`, ADMIN)).toMatch(
      /^Forgotten in this channel: 1 question and its answer, /,
    );
  });
});
