import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resumerThrough } from '../../../src/core/approvals/resume-through.js';
import { WORDING } from '../../../src/platforms/shared/wording.js';
import type { ConversationSnapshot } from '../../../src/platforms/web/conversation.js';
import type { WebApproval, WebRun } from '../../../src/platforms/web/web-run.js';
import { stdioTestServer, writeMcpJson } from '../../mcp/mcp-fixture.js';
import { startWebBed, stepsText, TOKEN, type WebBed, WebUser } from './web-harness.js';

const ECHO = { content: 'I will echo it.', toolCalls: [{ name: 'test__echo', arguments: { text: 'hi' } }] };
const HEADING = '▶️ Going on after a restart (test__echo approved by web user), for you: echo hi';

/** The conversation a fresh event stream of `user` is sent first (a page opened or reloaded). */
async function snapshot(user: WebUser): Promise<ConversationSnapshot> {
  const feed = await user.client.events();
  try {
    return (await feed.next((e) => e.event === 'conversation')).data as ConversationSnapshot;
  } finally {
    feed.close();
  }
}

describe('the web chat: a tool call waiting for approval outlives a restart (HTTP)', () => {
  let dir: string;
  let beds: WebBed[] = [];
  const users: WebUser[] = [];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'thinkthread-web-approvals-restart-'));
  });
  afterEach(async () => {
    for (const u of users.splice(0)) u.close();
    for (const bed of beds.reverse()) await bed.close();
    beds = [];
    rmSync(dir, { recursive: true, force: true });
  });

  /** A web process on the shared database and cookie secret, token users only, started as the root starts it. */
  const startProcess = async (approvals: { beatMs: number; staleMs: number }) => {
    const bed = await startWebBed(
      {
        DATABASE_URL: `sqlite:${join(dir, 'shared.db')}`,
        WEB_SESSION_SECRET: 'r'.repeat(40),
        WEB_CHAT_TOKEN: TOKEN,
        SHUTDOWN_GRACE_MS: '50',
        MCP_CONNECT_TIMEOUT_MS: '60000',
        MCP_CONFIG: writeMcpJson(dir, { test: stdioTestServer() }),
      },
      {},
      { approvals },
    );
    beds.push(bed);
    bed.test.core.approvals?.start(resumerThrough({ web: bed.adapter.systemRuns! }));
    return bed;
  };

  /** Shuts `bed` down in the root's order: no more sweeps, the platform drained (runs cancelled), the core closed. */
  const shutDown = async (bed: WebBed) => {
    await bed.test.core.approvals?.stop();
    await bed.close();
  };

  /** A browser on `bed` that gave the token; with `cookies`, the same browser as before (its page reloaded). */
  const browser = async (bed: WebBed, cookies?: ReadonlyMap<string, string>) => {
    const u = new WebUser(bed.url);
    users.push(u);
    if (cookies) for (const [k, v] of cookies) u.client.cookies.set(k, v);
    else expect((await u.client.request('/api/login', { token: TOKEN })).status).toBe(204);
    return u;
  };

  const press = (u: WebUser, body: Record<string, unknown>) => u.client.request('/api/approve', body);

  it('the kept run shows the restart and its Approve; after the restart one press goes on with the run, once, for the asker only', async () => {
    const a = await startProcess({ beatMs: 0, staleMs: 1 });
    a.test.fake.script(ECHO);
    const alice = await browser(a);
    const feed = await alice.stream();
    const sent = await alice.client.request('/api/ask', { text: 'echo hi' });
    expect(sent.status).toBe(202);
    const runId = String(sent.body?.id);
    const asked = await feed.next(
      (e) => e.event === 'approvals' && (e.data as { approvals: WebApproval[] }).approvals.length > 0,
    );
    const approval = (asked.data as { approvals: WebApproval[] }).approvals[0]!;
    expect(approval).toMatchObject({ tool: 'test__echo', args: '{\n  "text": "hi"\n}' });

    // Process A shuts down while the call waits: the run ends saying so, and its Approve stays.
    await shutDown(a);
    const ended = feed.events
      .filter((e) => e.event === 'run' && (e.data as WebRun).id === runId)
      .map((e) => e.data as WebRun)
      .at(-1);
    expect(ended).toMatchObject({
      phase: 'cancelled',
      problem: WORDING.restartedWaiting,
      approvals: [expect.objectContaining({ id: approval.id, tool: 'test__echo' })],
    });
    alice.close();

    // Process B on A's database: the same browser reloads its page and finds the run as it ended.
    const b = await startProcess({ beatMs: 0, staleMs: 1 });
    b.test.fake.script({ content: 'Echoed after the restart.' });
    const cookies = alice.client.cookies;
    const before = await snapshot(await browser(b, cookies));
    expect(before.runs).toHaveLength(1);
    expect(before.runs[0]).toMatchObject({
      id: runId,
      question: 'echo hi',
      phase: 'cancelled',
      problem: WORDING.restartedWaiting,
      approvals: [expect.objectContaining({ id: approval.id, tool: 'test__echo', args: approval.args })],
    });
    expect(stepsText(before.runs[0]!)).toContain('Action: test__echo');

    // Someone else with the token may not decide it.
    const stranger = await browser(b);
    expect((await press(stranger, { id: approval.id, approve: true })).body).toEqual({
      status: 'forbidden',
      message: 'Only the asker or an admin can approve this.',
    });

    // The asker approves on B: the run goes on in the same conversation, as a new answer.
    const watching = await browser(b, cookies);
    const live = await watching.stream();
    await live.next((e) => e.event === 'conversation');
    expect((await press(watching, { id: approval.id, approve: true })).body).toEqual({ status: 'approved' });
    const resumed = (
      await live.next(
        (e) => e.event === 'run' && ['final', 'failed', 'cancelled'].includes((e.data as WebRun).phase),
      )
    ).data as WebRun;
    expect(resumed).toMatchObject({ question: HEADING, phase: 'final', answer: 'Echoed after the restart.' });
    expect(resumed.id).not.toBe(runId);
    expect(resumed.approvals).toBeUndefined();
    expect(stepsText(resumed)).toMatch(
      /Action: test__echo[^\n]*\ntest__echo approved by web user\.\nObservation: echo: hi/,
    );
    expect((await press(watching, { id: approval.id, approve: true })).body).toEqual({
      status: 'expired',
      message: 'This request has expired.',
    });
    expect((await press(watching, { id: approval.id, approve: false })).body).toMatchObject({
      status: 'expired',
    });

    // Once: another sweep takes nothing more over; the conversation holds the old run and one new one.
    await b.test.core.approvals?.sweep();
    await b.adapter.idle();
    const after = await snapshot(await browser(b, cookies));
    const all = [...after.runs, ...(after.run ? [after.run] : [])];
    expect(all.map((r) => r.question)).toEqual(['echo hi', HEADING]);
    // The old run's Approve is gone now that its call is decided.
    expect(all[0]!.approvals).toBeUndefined();
    expect(all.map((r) => stepsText(r).match(/Observation: echo: hi/g)?.length ?? 0)).toEqual([0, 1]);
    // The model was asked once on each side: the call itself ran on B only, once.
    expect(a.test.fake.requests).toHaveLength(1);
    expect(b.test.fake.requests).toHaveLength(1);
    expect(JSON.stringify(b.test.fake.requests[0]!.body.messages)).toContain('echo: hi');
    const decisions = await b.test.store.listApprovals({ since: 0, until: Date.now() + 1 });
    expect(decisions).toEqual([expect.objectContaining({ id: approval.id, outcome: 'approved' })]);
    // Memory has the turn, answered once.
    const current = String((await watching.client.request('/api/chats')).body?.current);
    expect((await b.test.core.assistant.history(`web:${current}`)).turns).toEqual([
      expect.objectContaining({ question: 'echo hi', answer: 'Echoed after the restart.' }),
    ]);
  });
});
