import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resumerThrough } from '../../../src/core/approvals/resume-through.js';
import { parseRunActionId } from '../../../src/platforms/shared/run-actions.js';
import { WORDING } from '../../../src/platforms/shared/wording.js';
import {
  eventCallback,
  type FakeSlack,
  type FakeSlackMessage,
  visibleText,
} from '../../fakes/slack-server.js';
import { waitUntil } from '../../helpers/wait-until.js';
import { stdioTestServer, writeMcpJson } from '../../mcp/mcp-fixture.js';
import {
  ALICE,
  CHANNEL,
  mention,
  replies,
  type SlackHarness,
  startSlackHarness,
  topLevel,
} from './slack-harness.js';

// biome-ignore lint/suspicious/noExplicitAny: Slack blocks are loose JSON.
type Block = any;

const ECHO = { toolCalls: [{ name: 'test__echo', arguments: { text: 'hi' } }] };
const BOB = 'UBOB';

const buttonsOf = (message: FakeSlackMessage): Block[] =>
  (message.blocks ?? []).filter((b: Block) => b.type === 'actions').flatMap((b: Block) => b.elements);
const approveButton = (message: FakeSlackMessage) =>
  buttonsOf(message).find((e: Block) => parseRunActionId(e.action_id)?.action === 'approve');
/** Approve buttons as last seen on each message: a press from a client that still shows it (a double press). */
const seenButtons = new Map<string, Block>();
const press = (h: SlackHarness, message: FakeSlackMessage, user = ALICE) => {
  const button = approveButton(message) ?? seenButtons.get(message.ts);
  seenButtons.set(message.ts, button);
  return h.press(message, { type: 'button', action_id: button.action_id, value: button.value }, user);
};
const privateReplies = (slack: FakeSlack) => slack.responses.map((r) => r.body.text);

/**
 * Bot processes (edit layout) on one fake Slack and one SQLite database that outlives them. In HTTP mode each
 * has its own request URL, so a press reaches exactly the process it is sent to; in Socket Mode the fake
 * sends to the connection that is open, the restarted process's once the first one stopped.
 */
describe.each(['http', 'socket'] as const)(
  'Slack: approvals that outlive their process (%s mode)',
  (mode) => {
    let dir: string;
    let processes: SlackHarness[] = [];
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'thinkthread-slack-approvals-restart-'));
    });
    afterEach(async () => {
      // The first process owns the fake Slack: the others go first.
      for (const h of processes.reverse()) await h.close();
      processes = [];
      rmSync(dir, { recursive: true, force: true });
    });

    /** A bot process on the shared database (and on `slack`, another process's fake Slack, when given). */
    async function processOn(approvals: { beatMs: number; staleMs: number }, slack?: FakeSlack) {
      const h = await startSlackHarness(mode, {
        env: {
          SLACK_STREAMING: 'edit',
          SHUTDOWN_GRACE_MS: '20',
          MCP_CONNECT_TIMEOUT_MS: '60000',
          MCP_CONFIG: writeMcpJson(dir, { test: stdioTestServer() }),
        },
        databaseUrl: `sqlite:${join(dir, 'shared.db')}`,
        approvals,
        ...(slack ? { slack } : {}),
      });
      processes.push(h);
      // As the root does once its platforms are up.
      h.core.core.approvals?.start(resumerThrough({ slack: h.adapter.systemRuns! }));
      return h;
    }

    /** Asks without waiting for the answer; resolves with the approval message once it is posted. */
    async function askForApproval(h: SlackHarness, text: string): Promise<FakeSlackMessage> {
      await h.deliver(eventCallback(mention(text)));
      let message: FakeSlackMessage | undefined;
      await waitUntil(
        () => {
          message = h.slack.messages.find((m) => approveButton(m) !== undefined);
          return message !== undefined;
        },
        { what: 'the approval message' },
      );
      return message!;
    }

    it('restarted while a call waits: Approve on the old message goes on in a new answer, once', async () => {
      const a = await processOn({ beatMs: 0, staleMs: 1 });
      a.model.script(ECHO);
      const approval = await askForApproval(a, 'please echo hi');
      const [answer] = topLevel(a);
      expect(visibleText(answer!)).toBe('_Waiting for approval of test__echo…_');

      // SIGTERM: the grace period passes, the waiting run is cancelled for the shutdown.
      await a.shutdown();
      expect(visibleText(answer!)).toContain(WORDING.restartedWaiting);
      // The approval message still offers its buttons, untouched since it was posted.
      expect(buttonsOf(approval).map((b: Block) => b.text.text)).toEqual(['Approve', 'Deny']);
      expect(a.slack.callsTo('chat.update').filter((c) => c.args.ts === approval.ts)).toEqual([]);
      const postedBefore = a.slack.messages.length;

      const b = await processOn({ beatMs: 0, staleMs: 1 }, a.slack);
      b.model.script({ content: 'Echoed: hi.' });

      // Someone else's press changes nothing and is told so privately.
      await press(b, approval, BOB);
      await b.slack.waitFor(() => privateReplies(b.slack).length === 1);
      expect(privateReplies(b.slack)).toEqual(['Only the asker or an admin can approve this.']);
      expect(b.slack.messages).toHaveLength(postedBefore);

      await press(b, approval);
      await waitUntil(() => topLevel(b).length === 2, { what: 'the answer after the restart' });
      await b.settle();
      // The press closed the old approval message itself: its run's renderer died with process A.
      await waitUntil(() => buttonsOf(approval).length === 0, { what: 'the old approval buttons to go' });
      expect(visibleText(approval)).toMatch(/\*test__echo approved by Alice\.\*$/);
      const again = topLevel(b)[1]!;
      expect(visibleText(again)).toBe(
        '▶️ Going on after a restart (test__echo approved by Alice), for Alice: please echo hi\nEchoed: hi.',
      );
      // Its steps in its own thread: the call, who approved it, what it returned; nothing else was posted.
      const thread = replies(b, CHANNEL, again.ts);
      expect(thread.map(visibleText)).toEqual([
        '*Action:* `test__echo {"text":"hi"}`',
        '_test__echo approved by Alice._',
        '*Observation:*\n> echo: hi',
      ]);
      expect(b.slack.messages.slice(postedBefore)).toEqual([again, ...thread]);
      // The tool ran once, and the model went on from the conversation as it stood.
      expect(b.model.requests).toHaveLength(1);
      const messages = b.model.requests[0]!.body.messages as { role: string; content: unknown }[];
      expect(messages.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual([
        expect.stringContaining('echo: hi'),
      ]);
      expect(JSON.stringify(messages)).toContain('please echo hi');
      expect(a.model.requests).toHaveLength(1);

      // A second press finds nothing left to decide.
      await press(b, approval);
      await b.slack.waitFor(() => privateReplies(b.slack).length === 2);
      expect(privateReplies(b.slack)[1]).toBe('This request has expired.');
      // Nothing more is posted, however often the waiting calls are looked after.
      await b.core.core.approvals?.sweep();
      await b.settle();
      expect(topLevel(b)).toHaveLength(2);
      expect(b.model.requests).toHaveLength(1);
      expect(b.slack.ephemerals).toEqual([]);
    });

    // Two processes at once need a press meant for one of them: HTTP mode's request URLs say which.
    if (mode === 'http') {
      it('two replicas: a press delivered to the one that did not run the question finishes the runner’s answer', async () => {
        const a = await processOn({ beatMs: 20, staleMs: 60_000 });
        const b = await processOn({ beatMs: 20, staleMs: 60_000 }, a.slack);
        a.model.script(ECHO, { content: 'Echoed on the runner.' });
        const approval = await askForApproval(a, 'please echo hi');
        const [answer] = topLevel(a);

        // Slack sends the press to B's request URL.
        await press(b, approval);
        await b.settle(); // B decided it in the database
        await a.settle(); // A heard of it and went on with its own run
        expect(visibleText(answer!)).toBe('Echoed on the runner.');
        expect(buttonsOf(approval)).toEqual([]);
        expect(visibleText(approval)).toMatch(/\*test__echo approved by Alice\.\*$/);

        // A's own answer and its steps, in its thread: the approved call, what it returned.
        const thread = replies(a, CHANNEL, answer!.ts);
        expect(thread.map(visibleText)).toEqual([
          '*Thought:* Calling test__echo.',
          visibleText(approval),
          '*Action:* `test__echo {"text":"hi"}`',
          '_test__echo approved by Alice._',
          '*Observation:*\n> echo: hi',
        ]);
        // Nothing else: no other message, no answer resumed by B, however often it looks after waiting calls.
        expect(a.slack.messages).toEqual([answer, ...thread]);
        const posted = a.slack.messages.length;
        await b.core.core.approvals?.sweep();
        await b.settle();
        expect(a.slack.messages).toHaveLength(posted);
        expect(a.slack.messages.some((m) => visibleText(m).includes('Going on after a restart'))).toBe(false);
        expect(b.model.requests).toEqual([]);
        expect(a.model.requests).toHaveLength(2);
        expect(privateReplies(a.slack)).toEqual([]);
      });
    }
  },
);
