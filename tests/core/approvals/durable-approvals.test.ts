import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AgentEvent } from '../../../src/core/agent/events.js';
import { resumerThrough } from '../../../src/core/approvals/resume-through.js';
import type { AskOutcome } from '../../../src/core/assistant.js';
import { ShutdownAbort } from '../../../src/core/errors.js';
import type { Asker } from '../../../src/core/governance/asker.js';
import type { SystemRun, SystemRunDelivery } from '../../../src/core/ports/system-run-delivery.js';
import { systemRunRequest } from '../../../src/core/runs/system-run-request.js';
import { startTestCore, type TestCore } from '../../helpers/test-core.js';
import { waitUntil, withDeadline } from '../../helpers/wait-until.js';
import { stdioTestServer, writeMcpJson } from '../../mcp/mcp-fixture.js';
import { dropSchema, freshSchema, postgresSuite, withSchema } from '../../store/postgres-test-db.js';

const alice: Asker = { platform: 'console', userId: 'alice', principal: 'console:alice', dm: false };
const aliceApproves = { principal: 'console:alice', name: 'alice' };
const ECHO = { name: 'test__echo', arguments: { text: 'hi' } };
const KEY = 'console:room';

let dir: string;
let cores: TestCore[] = [];
let stops: AbortController[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'thinkthread-durable-approvals-'));
});
afterEach(async () => {
  for (const stop of stops) stop.abort();
  stops = [];
  for (const core of cores.reverse()) await core.close();
  cores = [];
  rmSync(dir, { recursive: true, force: true });
});

/** A bot process on the shared database; `beatMs: 0` stands for one that died (it never says it still waits). */
async function processOn(
  databaseUrl: string | undefined,
  approvals: { beatMs: number; staleMs: number },
  env: Record<string, string> = {},
) {
  const core = await startTestCore(
    { MCP_CONNECT_TIMEOUT_MS: '60000', MCP_CONFIG: writeMcpJson(dir, { test: stdioTestServer() }), ...env },
    {},
    { mcpBackoff: { initialMs: 20, maxMs: 100 }, approvals, ...(databaseUrl ? { databaseUrl } : {}) },
  );
  cores.push(core);
  return core;
}

/** Asks as alice, collecting the events; the run's outcome once it ends. */
function ask(t: TestCore, text: string) {
  const stop = new AbortController();
  stops.push(stop);
  const events: AgentEvent[] = [];
  const done = t.core.assistant.ask(
    { key: KEY, author: 'alice', text, asker: alice, signal: stop.signal },
    (e) => events.push(e),
  );
  return {
    events,
    stop,
    done: () => withDeadline(done, { what: 'the run to end' }),
    async approval() {
      await waitUntil(() => events.some((e) => e.type === 'approval'), { what: 'an approval event' });
      return events.find((e) => e.type === 'approval') as Extract<AgentEvent, { type: 'approval' }>;
    },
  };
}

/** The terminal's delivery of runs nobody just asked for, as a process that took over a run answers with it. */
function deliveries(t: TestCore) {
  const runs: { run: SystemRun; events: AgentEvent[]; outcome: Promise<AskOutcome> }[] = [];
  const delivery: SystemRunDelivery = {
    async deliver(run) {
      const events: AgentEvent[] = [];
      const outcome = t.core.assistant.ask(systemRunRequest(run), (e) => events.push(e));
      runs.push({ run, events, outcome });
      await outcome;
    },
    async tell() {},
  };
  t.core.approvals?.start(resumerThrough({ console: delivery }));
  return runs;
}

const dbOf = (t: TestCore) => t.config.DATABASE_URL;

describe('approvals that outlive their process (SQLite)', () => scenarios(() => undefined));

postgresSuite('approvals that outlive their process (Postgres)', (url) => {
  let schema = '';
  beforeEach(() => {
    schema = freshSchema();
  });
  afterEach(() => dropSchema(url, schema));
  scenarios(() => withSchema(url, schema));
});

/** The same scenarios on each engine; `database` is the first process's database (its own file when undefined). */
function scenarios(database: () => string | undefined) {
  it('after a restart, Approve goes on with the run from that call, once, and the turn is remembered', async () => {
    const before = await processOn(database(), { beatMs: 0, staleMs: 1 });
    before.fake.script({ content: 'I will echo it.', toolCalls: [ECHO] });
    const first = ask(before, 'please echo hi');
    const pending = await first.approval();
    // The process dies here: its run never hears of the press; the restarted one takes the run over.
    const after = await processOn(dbOf(before), { beatMs: 0, staleMs: 1 });
    after.fake.script({ content: 'Echoed: hi.' });
    const resumed = deliveries(after);

    expect(await after.core.assistant.approvalCall!(pending.id, aliceApproves)).toEqual({
      status: 'allowed',
      tool: 'test__echo',
      input: { text: 'hi' },
    });
    expect(
      await after.core.assistant.decideApproval!(
        pending.id,
        { principal: 'console:bob', name: 'bob' },
        {
          approve: true,
        },
      ),
    ).toEqual({ status: 'forbidden', message: 'Only the asker or an admin can approve this.' });
    expect(
      await after.core.assistant.decideApproval!(pending.id, aliceApproves, { approve: true }),
    ).toMatchObject({ status: 'approved' });
    expect(await after.core.assistant.decideApproval!(pending.id, aliceApproves, { approve: true })).toEqual({
      status: 'expired',
      message: 'This request has expired.',
    });

    await waitUntil(() => resumed.length === 1, { what: 'the run to be resumed' });
    const [again] = resumed;
    expect(await withDeadline(again!.outcome, { what: 'the resumed run' })).toMatchObject({
      status: 'answered',
      text: 'Echoed: hi.',
    });
    expect(again!.run.key).toBe(KEY);
    expect(again!.run.asker.principal).toBe('console:alice');
    const kinds = again!.events.map((e) => e.type);
    expect(kinds.slice(0, 3)).toEqual(['action', 'approval_decided', 'observation']);
    expect(again!.events).toContainEqual(
      expect.objectContaining({ type: 'approval_decided', outcome: 'approved', by: 'alice' }),
    );
    expect(again!.events).toContainEqual(
      expect.objectContaining({ type: 'observation', tool: 'test__echo', ok: true, text: 'echo: hi' }),
    );
    // The model saw the conversation as it stood: the question, its own call, and what the call returned.
    const seen = JSON.stringify(after.fake.requests[0]?.body.messages);
    expect(seen).toContain('please echo hi');
    expect(seen).toContain('test__echo');
    expect(seen).toContain('echo: hi');
    expect(after.fake.requests).toHaveLength(1);

    // Once: further sweeps find nothing more to take over.
    await after.core.approvals?.sweep();
    expect(resumed).toHaveLength(1);
    const history = await after.core.assistant.history(KEY);
    expect(history.turns).toEqual([
      expect.objectContaining({ author: 'alice', question: 'please echo hi', answer: 'Echoed: hi.' }),
    ]);
    const [decision] = await after.store.listApprovals({ since: 0, until: Date.now() + 1 });
    expect(decision).toMatchObject({ id: pending.id, outcome: 'approved', decidedBy: 'console:alice' });
    // One usage record for the question, completed by the resumed run (as it ends, not holding it up) with
    // both model calls in it.
    const records = await vi.waitFor(async () => {
      const found = await after.store.records({ since: 0, until: Date.now() + 1 });
      expect(found[0]?.outcome).not.toBe('pending');
      return found;
    });
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ outcome: 'answered', modelCalls: 2, tools: { test__echo: 1 } });
    expect(records[0]!.promptTokens).toBeGreaterThan(0);
  });

  it('a denial after a restart reaches the model with its reason, and the call never runs', async () => {
    const before = await processOn(database(), { beatMs: 0, staleMs: 1 });
    before.fake.script({ toolCalls: [ECHO] });
    const pending = await ask(before, 'echo hi').approval();
    const after = await processOn(dbOf(before), { beatMs: 0, staleMs: 1 });
    after.fake.script({ content: 'Not echoed, as you wished.' });
    const resumed = deliveries(after);
    expect(
      await after.core.assistant.decideApproval!(pending.id, aliceApproves, {
        approve: false,
        reason: 'not today',
      }),
    ).toMatchObject({ status: 'denied' });
    await waitUntil(() => resumed.length === 1, { what: 'the run to be resumed' });
    expect(await resumed[0]!.outcome).toMatchObject({
      status: 'answered',
      text: 'Not echoed, as you wished.',
    });
    const observation = resumed[0]!.events.find((e) => e.type === 'observation');
    expect(observation).toMatchObject({ ok: false });
    expect(JSON.stringify(after.fake.requests[0]?.body.messages)).toContain('not today');
    const { why } = resumed[0]!.run;
    expect(why.kind === 'resume' && why.resumed.outcomes[0]?.decision).toMatchObject({
      outcome: 'denied',
      reason: 'not today',
    });
  });

  it('a press on the replica that did not run the question decides it there; the run goes on where it waited, once', async () => {
    const runner = await processOn(database(), { beatMs: 20, staleMs: 60_000 });
    const other = await processOn(dbOf(runner), { beatMs: 20, staleMs: 60_000 });
    const othersRuns = deliveries(other);
    const runnersRuns = deliveries(runner);
    runner.fake.script({ toolCalls: [ECHO] }, { content: 'Echoed on the runner.' });
    const run = ask(runner, 'echo hi');
    const pending = await run.approval();

    expect(
      await other.core.assistant.decideApproval!(pending.id, aliceApproves, { approve: true }),
    ).toMatchObject({
      status: 'approved',
      // The replica pressed on shows the decision on the message itself: the run is not its own.
      elsewhere: {
        note: 'test__echo approved by alice.',
        call: { tool: 'test__echo', input: { text: 'hi' } },
      },
    });
    expect(await run.done()).toMatchObject({ status: 'answered', text: 'Echoed on the runner.' });
    expect(run.events).toContainEqual(
      expect.objectContaining({ type: 'approval_decided', outcome: 'approved', by: 'alice' }),
    );
    expect(run.events).toContainEqual(expect.objectContaining({ type: 'observation', ok: true }));
    // A press on the runner now, or anywhere, finds nothing to decide; nobody resumed anything.
    expect(
      await runner.core.assistant.decideApproval!(pending.id, aliceApproves, { approve: false }),
    ).toEqual({
      status: 'expired',
      message: 'This request has expired.',
    });
    await other.core.approvals?.sweep();
    expect(othersRuns).toHaveLength(0);
    expect(runnersRuns).toHaveLength(0);
    expect(other.fake.requests).toHaveLength(0);
  });

  it('unanswered after a restart, the call expires: the run goes on telling the model, and it is recorded', async () => {
    const before = await processOn(database(), { beatMs: 0, staleMs: 1 });
    before.fake.script({ toolCalls: [ECHO] });
    const pending = await ask(before, 'echo hi').approval();
    // The restart took longer than APPROVAL_TIMEOUT_MS: the kept call's time is up (the dead process's timer
    // never fires, so its clock is moved in the store instead).
    const kept = await before.store.getWait(pending.id);
    await before.store.dropWait(pending.id);
    await before.store.saveWait({ ...kept!, expiresAt: Date.now() - 1 });
    const after = await processOn(dbOf(before), { beatMs: 0, staleMs: 1 });
    after.fake.script({ content: 'Nobody approved the echo.' });
    // A press past the time is too late, even before anyone has taken the call over.
    expect(await after.core.assistant.decideApproval!(pending.id, aliceApproves, { approve: true })).toEqual({
      status: 'expired',
      message: 'This request has expired.',
    });
    const resumed = deliveries(after);
    // Past its time, the next sweep takes the orphaned call over as expired.
    await vi.waitFor(
      async () => {
        await after.core.approvals?.sweep();
        expect(resumed).toHaveLength(1);
      },
      { timeout: 5000, interval: 20 },
    );
    expect(await resumed[0]!.outcome).toMatchObject({
      status: 'answered',
      text: 'Nobody approved the echo.',
    });
    expect(JSON.stringify(after.fake.requests[0]?.body.messages)).toContain('no one approved this call');
    const [decision] = await after.store.listApprovals({ since: 0, until: Date.now() + 1 });
    expect(decision).toMatchObject({ id: pending.id, outcome: 'expired' });
  });

  it('a shutdown while waiting keeps the call: after the restart a press goes on with the run', async () => {
    const before = await processOn(database(), { beatMs: 20, staleMs: 1 });
    before.fake.script({ toolCalls: [ECHO] });
    const run = ask(before, 'echo hi');
    const pending = await run.approval();
    // What a platform's shutdown does once its grace period is over.
    run.stop.abort(new ShutdownAbort());
    expect(await run.done()).toMatchObject({ status: 'cancelled' });
    expect(run.events.some((e) => e.type === 'approval_decided')).toBe(false);
    await before.core.approvals?.stop();
    expect(await before.store.getWait(pending.id)).toMatchObject({ id: pending.id, tool: 'test__echo' });
    expect(await before.store.listApprovals({ since: 0, until: Date.now() + 1 })).toEqual([]);

    const after = await processOn(dbOf(before), { beatMs: 0, staleMs: 1 });
    after.fake.script({ content: 'Echoed after the restart.' });
    const resumed = deliveries(after);
    expect(
      await after.core.assistant.decideApproval!(pending.id, aliceApproves, { approve: true }),
    ).toMatchObject({ status: 'approved' });
    await waitUntil(() => resumed.length === 1, { what: 'the run to be resumed' });
    expect(await resumed[0]!.outcome).toMatchObject({
      status: 'answered',
      text: 'Echoed after the restart.',
    });
    // One log for the question: what ran before the shutdown, then the restart, the decision and the rest.
    const steps = await vi.waitFor(async () => {
      const [listed] = await after.store.listRuns({ since: 0, until: Date.now() + 1, limit: 5 });
      const log = listed && (await after.store.runDetail(listed.id))?.log;
      if (!log?.answer) throw new Error('no resumed run log yet');
      return log.steps;
    });
    expect(steps.map((step) => (step.kind === 'notice' ? `notice ${step.code}` : step.kind))).toEqual([
      'model',
      'thought',
      'action',
      'error',
      'notice resumed',
      'action',
      'approval',
      'observation',
      'model',
      'answer',
    ]);
    expect(steps.find((step) => step.kind === 'approval')).toMatchObject({
      outcome: 'approved',
      by: 'alice',
      waitedMs: expect.any(Number),
    });
  });

  it('Stop while waiting ends the run for good: no process takes it over later', async () => {
    const before = await processOn(database(), { beatMs: 0, staleMs: 1 });
    before.fake.script({ toolCalls: [ECHO] });
    const run = ask(before, 'echo hi');
    const pending = await run.approval();
    run.stop.abort();
    expect(await run.done()).toMatchObject({ status: 'cancelled' });
    const after = await processOn(dbOf(before), { beatMs: 0, staleMs: 1 });
    const resumed = deliveries(after);
    await vi.waitFor(async () => expect(await after.store.getWait(pending.id)).toBeUndefined());
    expect(await after.core.assistant.decideApproval!(pending.id, aliceApproves, { approve: true })).toEqual({
      status: 'expired',
      message: 'This request has expired.',
    });
    await after.core.approvals?.sweep();
    expect(resumed).toHaveLength(0);
  });
}
