import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseRunActionId } from '../../../src/platforms/shared/run-actions.js';
import { WORDING } from '../../../src/platforms/shared/wording.js';
import { FAKE_ROLES, type FakeMessage } from '../../fakes/discord-server.js';
import { waitUntil } from '../../helpers/wait-until.js';
import { stdioTestServer, writeMcpJson } from '../../mcp/mcp-fixture.js';
import { askForApproval, buttonIds, press } from './approval-steps.js';
import { type DiscordBed, startDiscordBed } from './harness.js';

const ECHO = { toolCalls: [{ name: 'test__echo', arguments: { text: 'hi @everyone ```' } }] };
/** Arguments far past the 1,500 characters the approval message shows, with what could escape a code block. */
const LONG_ARGS = {
  text: `${'a long line of text to echo, '.repeat(80)}@everyone \`\`\` <@123>`,
  options: { prefix: 'x'.repeat(400) },
};
const LONG_ECHO = { toolCalls: [{ name: 'test__echo', arguments: LONG_ARGS }] };

describe('Discord: tool calls that wait for approval', () => {
  let bed: DiscordBed | undefined;
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'thinkthread-discord-approvals-'));
  });
  afterEach(async () => {
    await bed?.close();
    bed = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  const start = (env: Record<string, string> = {}, server: Record<string, unknown> = {}) =>
    startDiscordBed({
      // The classic prompt (approval-card.test.ts has the components v2 card).
      DISCORD_COMPONENTS_V2: 'false',
      MCP_CONNECT_TIMEOUT_MS: '60000',
      MCP_CONFIG: writeMcpJson(dir, { test: { ...stdioTestServer(), ...server } }),
      ...env,
    });

  const answerOf = async (_b: DiscordBed, reply: FakeMessage, text: string) =>
    waitUntil(() => reply.content === text, { what: `the answer "${text}" (now "${reply.content}")` });

  it('posts the call with its arguments and Approve / Deny in the steps thread; the asker approves; a second press has expired', async () => {
    bed = await start();
    bed.model.script(ECHO, { content: 'Echoed.' });
    const { reply, approval } = await askForApproval(bed);
    const [approveId, denyId] = buttonIds(approval);
    expect(parseRunActionId(approveId!)?.action).toBe('approve');
    expect(parseRunActionId(denyId!)?.action).toBe('deny');
    // Nothing was cut, so there is nothing more to show.
    expect(buttonIds(approval)).toHaveLength(2);
    expect(approval.content).toMatch(
      /^\*\*Approval needed:\*\* `test__echo`\n```\n\{\n {2}"text": "hi @everyone `\u200b``"\n\}\n```\n-# The asker or an admin decides; unanswered, it is denied <t:\d+:R>\.$/,
    );
    const posted = bed.discord.calls.find(
      (c) => c.method === 'POST' && JSON.stringify(c.body ?? {}).includes('"Approve"'),
    );
    expect(posted?.body.allowed_mentions).toMatchObject({ parse: [] });
    expect(reply.content).toBe('Waiting for approval of test__echo…');

    expect((await press(bed, approval, approveId!, bed.alice)).type).toBe(6);
    await answerOf(bed, reply, 'Echoed.');
    await waitUntil(() => buttonIds(approval).length === 0, { what: 'the buttons to go' });
    expect(approval.content).toMatch(/\n\*\*test__echo approved by alice\.\*\*$/);
    expect(bed.discord.messages(reply.id).map((m) => m.content)).toContain(
      '-# test__echo approved by alice.',
    );
    expect(await press(bed, approval, approveId!, bed.alice)).toMatchObject({
      type: 4,
      data: { content: 'This request has expired.', flags: 64 },
    });
  });

  it('Deny opens a form for the reason; the model reads it and the tool does not run', async () => {
    bed = await start();
    bed.model.script(ECHO, { content: 'Did not echo.' });
    const { reply, approval } = await askForApproval(bed);
    const denyId = buttonIds(approval)[1]!;
    const modal = await press(bed, approval, denyId, bed.alice);
    expect(modal).toMatchObject({ type: 9, data: { custom_id: denyId, title: 'Deny this tool call' } });
    const { id } = bed.discord.submitModal({
      message: approval,
      customId: denyId,
      user: bed.alice,
      values: { reason: 'not in #general' },
    });
    await bed.discord.waitForCall((c) => c.path.startsWith(`/interactions/${id}/`));
    expect(bed.discord.callbacks.find((c) => c.id === id)?.type).toBe(6);
    await answerOf(bed, reply, 'Did not echo.');
    expect(approval.content).toMatch(/\*\*test__echo denied by alice: not in #general\.\*\*$/);
    expect(JSON.stringify(bed.model.requests[1]!.body.messages)).toContain(
      'Their reason: not in #general. Do not call it again',
    );
    expect(JSON.stringify(bed.model.requests[1]!.body.messages)).not.toContain('echo: hi');
  });

  it('tells a stranger privately, without a form; an admin may decide', async () => {
    bed = await start();
    bed.model.script(ECHO, { content: 'Echoed.' });
    const { reply, approval } = await askForApproval(bed);
    const [approveId, denyId] = buttonIds(approval);
    const bob = bed.discord.user('bob');
    const forbidden = {
      type: 4,
      data: { content: 'Only the asker or an admin can approve this.', flags: 64 },
    };
    expect(await press(bed, approval, approveId!, bob)).toMatchObject(forbidden);
    expect(await press(bed, approval, denyId!, bob)).toMatchObject(forbidden);
    const admin = bed.discord.user('moderator');
    expect((await press(bed, approval, approveId!, admin, [FAKE_ROLES.manager])).type).toBe(6);
    await answerOf(bed, reply, 'Echoed.');
    expect(approval.content).toMatch(/\*\*test__echo approved by moderator\.\*\*$/);
  });

  it('no press in time: denied, the model told, the message says so; a late press has expired', async () => {
    bed = await start({ APPROVAL_TIMEOUT_MS: '60' });
    bed.model.script(ECHO, { content: 'Nobody approved.' });
    const { reply, approval } = await askForApproval(bed);
    const approveId = buttonIds(approval)[0]!;
    await answerOf(bed, reply, 'Nobody approved.');
    await waitUntil(() => buttonIds(approval).length === 0, { what: 'the buttons to go' });
    expect(approval.content).toMatch(/\*\*test__echo was not approved in time, so it did not run\.\*\*$/);
    // A press that was on its way when the buttons went.
    expect(await press(bed, approval, approveId, bed.alice)).toMatchObject({
      type: 4,
      data: { content: 'This request has expired.', flags: 64 },
    });
  });

  it('Stop while waiting: the answer stops, the approval message says it ended', async () => {
    bed = await start();
    bed.model.script(ECHO);
    const { reply, approval } = await askForApproval(bed);
    const stopId = buttonIds(reply)[0]!;
    expect((await press(bed, reply, stopId, bed.alice)).type).toBe(6);
    await waitUntil(() => reply.content === WORDING.stopped, { what: 'the answer to stop' });
    await waitUntil(() => buttonIds(approval).length === 0, { what: 'the buttons to go' });
    expect(approval.content).toMatch(/\*\*The answer ended before anyone decided\.\*\*$/);
  });

  describe('arguments too long for the message', () => {
    const showAllId = (message: FakeMessage) =>
      buttonIds(message).find((id) => parseRunActionId(id)?.action === 'args');
    const labels = (message: FakeMessage) =>
      ((message.components ?? []) as { components: { label: string; style: number }[] }[]).flatMap((row) =>
        row.components.map((b) => `${b.label}:${b.style}`),
      );

    it('cuts them in the message and "Show all arguments" sends the asker the whole JSON as a private file', async () => {
      bed = await start();
      bed.model.script(LONG_ECHO, { content: 'Echoed.' });
      const { reply, approval } = await askForApproval(bed);
      expect(labels(approval)).toEqual(['Approve:3', 'Deny:4', 'Show all arguments:2']);
      expect(approval.content).toContain('-# arguments cut here: ');
      expect(approval.content).not.toContain('<@123>');

      const answer = await press(bed, approval, showAllId(approval)!, bed.alice);
      expect(answer).toMatchObject({ type: 4, data: { flags: 64, attachments: [{ id: '0' }] } });
      expect(answer.data.content).toBe('The whole arguments of `test__echo`:');
      expect(answer.files?.map((f) => f.filename)).toEqual(['arguments.json']);
      // Only the presser sees it (ephemeral), in the thread they pressed in.
      const shown = bed.discord.original(answer.token);
      expect(shown).toMatchObject({ channel_id: approval.channel_id, flags: 64 });
      const file = await fetch(shown!.attachments[0].url);
      const text = await file.text();
      expect(text).toBe(JSON.stringify(LONG_ARGS, null, 2));
      expect(JSON.parse(text)).toEqual(LONG_ARGS);

      // The press decided nothing: the call still waits, and the asker can approve it.
      expect(reply.content).toBe('Waiting for approval of test__echo…');
      expect((await press(bed, approval, buttonIds(approval)[0]!, bed.alice)).type).toBe(6);
      await answerOf(bed, reply, 'Echoed.');
    });

    it('tells a stranger privately, without the arguments; after the decision a press has expired', async () => {
      bed = await start();
      bed.model.script(LONG_ECHO, { content: 'Echoed.' });
      const { reply, approval } = await askForApproval(bed);
      const showAll = showAllId(approval)!;
      const refused = await press(bed, approval, showAll, bed.discord.user('bob'));
      expect(refused).toMatchObject({
        type: 4,
        data: { content: 'Only the asker or an admin can approve this.', flags: 64 },
      });
      expect(refused.files).toBeUndefined();

      expect((await press(bed, approval, buttonIds(approval)[0]!, bed.alice)).type).toBe(6);
      await answerOf(bed, reply, 'Echoed.');
      await waitUntil(() => buttonIds(approval).length === 0, { what: 'the buttons to go' });
      // A press that was on its way when the buttons went.
      const late = await press(bed, approval, showAll, bed.alice);
      expect(late).toMatchObject({ type: 4, data: { content: 'This request has expired.', flags: 64 } });
      expect(late.files).toBeUndefined();
    });
  });

  it('once-per-channel: after one approval the tool runs without asking in this channel', async () => {
    bed = await start({}, { approval: 'once-per-channel' });
    bed.model.script(ECHO, { content: 'one' }, ECHO, { content: 'two' });
    const first = await askForApproval(bed);
    await press(bed, first.approval, buttonIds(first.approval)[0]!, bed.alice);
    await answerOf(bed, first.reply, 'one');
    const question = await bed.say('echo again');
    const reply = bed.replyTo(question);
    expect(reply.content).toBe('two');
    expect(bed.discord.messages(reply.id).some((m) => buttonIds(m).length > 0)).toBe(false);
  });
});
