import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseRunActionId } from '../../../src/platforms/shared/run-actions.js';
import { WORDING } from '../../../src/platforms/shared/wording.js';
import { eventCallback, type FakeSlackMessage } from '../../fakes/slack-server.js';
import { waitUntil } from '../../helpers/wait-until.js';
import { stdioTestServer, writeMcpJson } from '../../mcp/mcp-fixture.js';
import { startGatedModel } from './gated-model.js';
import {
  ADMIN,
  ALICE,
  ask,
  CHANNEL,
  directMessage,
  mention,
  replies,
  type SlackHarness,
  type SlackMode,
  startSlackHarness,
} from './slack-harness.js';

// biome-ignore lint/suspicious/noExplicitAny: Slack payloads are loose JSON.
type Json = any;

/** A session's statuses as a person saw them change (a repeat of the same status changes nothing). */
const seenStatuses = (statuses: readonly string[]) => statuses.filter((s, i) => s !== statuses[i - 1]);

describe.each<SlackMode>(['http', 'socket'])('slack (%s): agent sessions', (mode) => {
  let h: SlackHarness | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it('a run with an approval: processing, suspended while the call waits, processing once approved, active at the end', async () => {
    dir = mkdtempSync(join(tmpdir(), 'thinkthread-slack-sessions-'));
    h = await startSlackHarness(mode, {
      env: { MCP_CONNECT_TIMEOUT_MS: '60000', MCP_CONFIG: writeMcpJson(dir, { test: stdioTestServer() }) },
    });
    const harness = h;
    harness.model.script(
      { toolCalls: [{ name: 'test__echo', arguments: { text: 'hi' } }] },
      { content: 'Echoed.' },
    );
    const question = mention('echo hi');
    await harness.deliver(eventCallback(question));
    const session = () => harness.slack.agentSessions.get(CHANNEL, question.ts);
    let approval: FakeSlackMessage | undefined;
    await waitUntil(
      () => {
        approval = harness.slack.messages.find((m) =>
          (m.blocks ?? []).some((b: Json) =>
            (b.elements ?? []).some((e: Json) => parseRunActionId(e.action_id ?? '')?.action === 'approve'),
          ),
        );
        return approval !== undefined && session()?.status === 'suspended';
      },
      { what: 'the approval message, and the session suspended' },
    );
    // While it waits, Slack shows no Working… (and no stop): the session says the bot waits for someone.
    expect(session()!.status).toBe('suspended');
    const approve = approval!
      .blocks!.flatMap((b: Json) => b.elements ?? [])
      .find((e: Json) => parseRunActionId(e.action_id ?? '')?.action === 'approve');
    await harness.press(approval!, { type: 'button', action_id: approve.action_id, value: approve.value });
    await harness.settle();

    expect(seenStatuses(session()!.statuses)).toEqual(['processing', 'suspended', 'processing', 'active']);
    expect(session()!.title).toBe('echo hi');
    // The end rode on the stream's stop: no separate call to say `active`.
    expect(harness.slack.callsTo('chat.stopStream').at(-1)!.args.session_status).toBe('active');
    const statusCalls = harness.slack.callsTo('agents.sessions.setStatus').map((c) => c.args.status);
    expect(statusCalls).toEqual(['processing', 'suspended', 'processing']);
    expect(harness.slack.calls.filter((c) => c.method.startsWith('agents.') && !c.reply.ok)).toEqual([]);
  });

  it('titles a session after its first question; a title a person gave it is kept, across a restart', async () => {
    h = await startSlackHarness(mode);
    h.model.script({ content: 'Hello.' }, { content: 'Still here.' }, { content: 'And again.' });
    const dm = directMessage('what   can you\ndo for me?');
    await ask(h, dm);
    const session = () => h!.slack.agentSessions.get('D0001', dm.ts)!;
    expect(session().title).toBe('what can you do for me?');

    await h.deliver(h.slack.renameSession('D0001', dm.ts, 'Plans for Friday', ALICE));
    await h.settle();
    await ask(h, { ...directMessage('and more?'), thread_ts: dm.ts });
    expect(session().title).toBe('Plans for Friday');

    // A new process knows nothing of the rename: the session's own title, read back, is kept.
    await h.shutdown();
    const slack = h.slack;
    h = await startSlackHarness(mode, { slack });
    h.model.script({ content: 'Back again.' });
    await ask(h, { ...directMessage('still there?'), thread_ts: dm.ts });
    expect(session().titles).toEqual(['what can you do for me?', 'Plans for Friday']);
    expect(slack.callsTo('agents.sessions.rename')).toEqual([]);
    expect(slack.callsTo('assistant.threads.setTitle')).toEqual([]);
    await slack.close();
  });

  it('titles a session Slack made without one (a stream that came first), unless a person named it', async () => {
    h = await startSlackHarness(mode);
    h.model.script({ content: 'First.' }, { content: 'Second.' });
    const untitled = mention('how tall is the Eiffel tower?');
    h.slack.agentSessions.streamStarted(CHANNEL, untitled.ts);
    await ask(h, untitled);
    expect(h.slack.agentSessions.get(CHANNEL, untitled.ts)!.title).toBe('how tall is the Eiffel tower?');
    expect(h.slack.callsTo('agents.sessions.rename')).toHaveLength(1);

    const named = mention('and the Empire State?');
    h.slack.agentSessions.streamStarted(CHANNEL, named.ts);
    await h.deliver(h.slack.renameSession(CHANNEL, named.ts, 'Tall buildings', ALICE));
    await h.settle();
    await ask(h, named);
    expect(h.slack.agentSessions.get(CHANNEL, named.ts)!.title).toBe('Tall buildings');
    expect(h.slack.callsTo('agents.sessions.rename')).toHaveLength(1);
  });

  it("Slack's own stop: the run stops, and its session goes from processing to active", async () => {
    const written = 'The first part of a long answer. '.repeat(6);
    const model = await startGatedModel(written, 'and the rest, never sent.');
    try {
      h = await startSlackHarness(mode, { env: { OPENAI_BASE_URL: model.url } });
      const harness = h;
      const question = mention('tell me a long story');
      await harness.deliver(eventCallback(question));
      const reply = await harness.slack.waitFor(() =>
        replies(harness, CHANNEL, question.ts).find((m) => m.text.startsWith('The first part')),
      );
      expect(harness.slack.agentSessions.get(CHANNEL, question.ts)!.status).toBe('processing');
      await harness.deliver(harness.slack.pressStop(reply.ts, ADMIN));
      await harness.settle();
      model.release();
      // "The session status will not update automatically when the user clicks stop": the bot sets it.
      expect(harness.slack.agentSessions.get(CHANNEL, question.ts)!.status).toBe('active');
      expect(harness.slack.callsTo('agents.sessions.setStatus').at(-1)!.args.status).toBe('active');
    } finally {
      await model.close();
    }
  });

  it('a stream past its age limit: the answer goes on in a new message, and the session ends active', async () => {
    h = await startSlackHarness(mode);
    const harness = h;
    let open: () => void = () => {};
    const old = new Promise<void>((resolve) => {
      open = resolve;
    });
    const answer = Array.from({ length: 60 }, (_, i) => `Sentence ${i} of a slow answer.`).join(' ');
    harness.model.script(
      { content: 'Let me look.', toolCalls: [{ name: 'calculator', arguments: { expression: '1 + 1' } }] },
      { content: answer, until: old },
    );
    const question = mention('a slow question');
    await harness.deliver(eventCallback(question));
    await waitUntil(() => harness.model.requests.length === 2, { what: 'the second model call' });
    // The stream has shown the finished step before its age runs out (a loaded machine may flush it later).
    const stepShown = () =>
      [...harness.slack.callsTo('chat.startStream'), ...harness.slack.callsTo('chat.appendStream')].some(
        (c) => JSON.stringify(c.args.chunks ?? []).includes('"status":"complete"'),
      );
    await waitUntil(stepShown, { what: 'the calculator step streamed' });
    harness.advance(4.5 * 60_000 + 1);
    open();
    await harness.settle();

    expect(replies(harness, CHANNEL, question.ts)).toHaveLength(2); // the run went on in a new message
    // One stop, at the age limit: `processing` while the run goes on, `active` when the answer ends it there.
    const stops = harness.slack.callsTo('chat.stopStream').map((c) => c.args.session_status);
    expect(stops).toHaveLength(1);
    expect(['processing', 'active']).toContain(stops[0]);
    expect(seenStatuses(harness.slack.agentSessions.get(CHANNEL, question.ts)!.statuses)).toEqual([
      'processing',
      'active',
    ]);
  });

  it('a thanks in a followed thread closes its session', async () => {
    h = await startSlackHarness(mode);
    h.model.script({ content: 'Sales were up.' });
    const question = mention('what were sales in Q3?');
    await ask(h, question);
    const thanks = h.slack.addMessage({
      channel: CHANNEL,
      user: ALICE,
      text: 'thanks!',
      threadTs: question.ts,
    });
    await ask(h, { ...thanks, channel_type: 'channel', thread_ts: question.ts });
    expect(h.slack.reactions).toHaveLength(1);
    expect(h.slack.agentSessions.get(CHANNEL, question.ts)!.status).toBe('closed');
  });
});

describe('slack: workspaces without agent sessions', () => {
  let h: SlackHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it.each(['unknown_method', 'missing_scope', 'feature_disabled', 'not_allowed_token_type'])(
    'on %s: the status goes through assistant.threads.*, said once per workspace; stops carry no session_status',
    async (error) => {
      h = await startSlackHarness('http');
      h.slack.agentSessions.behaviour.refuse = error;
      h.model.script({ content: 'One.' }, { content: 'Two.' });
      await ask(h, mention('first?'));
      await ask(h, mention('second?'));

      expect(h.slack.assistant.statuses.map((s: Json) => s.status)).toEqual([
        WORDING.working,
        '',
        WORDING.working,
        '',
      ]);
      expect(h.slack.callsTo('agents.sessions.setStatus')).toHaveLength(1);
      const told = h.logs.filter((l) => /no Slack agent sessions/.test(l.msg));
      expect(told).toHaveLength(1);
      expect(told[0]).toMatchObject({ team: 'T0001', error });
      expect(h.slack.callsTo('chat.stopStream').map((c) => c.args.session_status)).toEqual([
        undefined,
        undefined,
      ]);
      // Titles in channels need sessions; the legacy surface titles DM threads only.
      expect(h.slack.callsTo('assistant.threads.setTitle')).toEqual([]);
    },
  );
});
