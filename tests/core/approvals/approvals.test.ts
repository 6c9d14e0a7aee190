import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AgentEvent } from '../../../src/core/agent/events.js';
import { argumentsDigest } from '../../../src/core/approvals/approval-record.js';
import type { AskOutcome } from '../../../src/core/assistant.js';
import type { Asker } from '../../../src/core/governance/asker.js';
import { formatUsageReport } from '../../../src/platforms/shared/format-usage.js';
import { startTestCore, type TestCore } from '../../helpers/test-core.js';
import { waitUntil, withDeadline } from '../../helpers/wait-until.js';
import { stdioTestServer, writeMcpJson } from '../../mcp/mcp-fixture.js';

const SLOW = { MCP_CONNECT_TIMEOUT_MS: '60000' };
const alice: Asker = { platform: 'console', userId: 'alice', principal: 'console:alice', dm: false };
const bob = { principal: 'console:bob', name: 'bob' };
const admin = { principal: 'slack:T1:UADMIN', name: 'the admin' };
const ECHO = { name: 'test__echo', arguments: { text: 'hi' } };

let dir: string;
let test: TestCore | undefined;
/** Every run's Stop: runs a test leaves waiting are stopped before the core closes. */
let stops: AbortController[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'thinkthread-approvals-'));
});
afterEach(async () => {
  for (const stop of stops) stop.abort();
  stops = [];
  await test?.close();
  test = undefined;
  rmSync(dir, { recursive: true, force: true });
});

const start = (overrides: Record<string, string> = {}, server: Record<string, unknown> = {}) =>
  startTestCore(
    {
      ...SLOW,
      ADMIN_USERS: 'slack:T1:UADMIN',
      MCP_CONFIG: writeMcpJson(dir, { test: { ...stdioTestServer(), ...server } }),
      ...overrides,
    },
    {},
    { mcpBackoff: { initialMs: 20, maxMs: 100 } },
  );

/** Asks as alice in `key`, collecting the events; resolves with the outcome once the run ends. */
function ask(t: TestCore, text: string, key = 'console:room', stop = new AbortController()) {
  stops.push(stop);
  const events: AgentEvent[] = [];
  const done: Promise<AskOutcome> = t.core.assistant.ask(
    { key, author: 'alice', text, asker: alice, signal: stop.signal },
    (e) => events.push(e),
  );
  const approval = async () => {
    await waitUntil(() => events.some((e) => e.type === 'approval'), { what: 'an approval event' });
    return events.find((e) => e.type === 'approval') as Extract<AgentEvent, { type: 'approval' }>;
  };
  const observation = () =>
    events.find((e) => e.type === 'observation') as Extract<AgentEvent, { type: 'observation' }> | undefined;
  return {
    events,
    get done() {
      return withDeadline(done, { what: 'the run to end' });
    },
    approval,
    observation,
  };
}

/** The newest decision recorded, once one is (recording does not hold the run up). */
async function recorded(t: TestCore) {
  return vi.waitFor(async () => {
    const [newest] = await t.store.listApprovals({ since: 0, until: Date.now() + 1 });
    if (!newest) throw new Error('no decision recorded yet');
    return newest;
  });
}

describe('tool calls that wait for approval (core)', () => {
  it('holds an MCP call (default always) until the asker approves; the exact arguments are shown and the decision recorded', async () => {
    test = await start();
    test.fake.script({ toolCalls: [ECHO] }, { content: 'Done.' });
    const run = ask(test, 'echo hi');
    const pending = await run.approval();
    expect(pending).toMatchObject({ tool: 'test__echo', input: { text: 'hi' }, approvers: 'asker+admins' });
    expect(run.observation()).toBeUndefined();
    expect(test.fake.requests).toHaveLength(1);

    expect(await test.core.assistant.decideApproval!(pending.id, { ...bob }, { approve: true })).toEqual({
      status: 'forbidden',
      message: 'Only the asker or an admin can approve this.',
    });
    expect(
      await test.core.assistant.decideApproval!(
        pending.id,
        { principal: 'console:alice', name: 'alice' },
        { approve: true },
      ),
    ).toEqual({ status: 'approved' });
    expect(
      await test.core.assistant.decideApproval!(
        pending.id,
        { principal: 'console:alice', name: 'alice' },
        { approve: false },
      ),
    ).toEqual({ status: 'expired', message: 'This request has expired.' });

    expect(await run.done).toMatchObject({ status: 'answered', text: 'Done.' });
    expect(run.observation()).toMatchObject({ ok: true, text: 'echo: hi' });
    expect(run.events).toContainEqual(
      expect.objectContaining({ type: 'approval_decided', outcome: 'approved', by: 'alice' }),
    );
    const record = await recorded(test);
    expect(record).toMatchObject({
      id: pending.id,
      tool: 'test__echo',
      outcome: 'approved',
      asker: 'console:alice',
      decidedBy: 'console:alice',
      argsDigest: argumentsDigest({ text: 'hi' }),
      platform: 'console',
    });
    const adminAsker: Asker = { ...alice, principal: 'slack:T1:UADMIN', platform: 'slack' };
    const report = formatUsageReport(await test.core.assistant.usage(adminAsker, 'console:room'));
    expect(report).toMatch(
      /Tool-call approvals, last 30 days:\n {2}\S+ \S+ test__echo approved by console:alice \[args [0-9a-f]{12}\]/,
    );
    expect(formatUsageReport(await test.core.assistant.usage(alice, 'console:room'))).not.toMatch(
      /approvals/,
    );
  });

  it('gives a denial and its reason to the model; the tool does not run', async () => {
    test = await start();
    test.fake.script({ toolCalls: [ECHO] }, { content: 'Understood, I did not echo.' });
    const run = ask(test, 'echo hi');
    const pending = await run.approval();
    expect(
      await test.core.assistant.decideApproval!(pending.id, admin, { approve: false, reason: 'not today' }),
    ).toEqual({
      status: 'denied',
    });
    expect(await run.done).toMatchObject({ status: 'answered' });
    expect(run.observation()).toMatchObject({ ok: false });
    expect(run.observation()?.text).toMatch(
      /^Not run: .*denied it\. Their reason: not today\. Do not call it again/,
    );
    const toModel = JSON.stringify(test.fake.requests[1]!.body.messages);
    expect(toModel).toContain('Their reason: not today');
    expect(toModel).not.toContain('echo: hi');
    expect(await recorded(test)).toMatchObject({
      outcome: 'denied',
      reason: 'not today',
      decidedBy: 'slack:T1:UADMIN',
    });
    // The run's log says who decided and how long the call waited; a call that never ran is no failing tool.
    const t = test;
    const steps = await vi.waitFor(async () => {
      const [listed] = await t.store.listRuns({ since: 0, until: Date.now() + 1, limit: 1 });
      const log = listed && (await t.store.runDetail(listed.id))?.log;
      if (!log) throw new Error('no run log yet');
      return log.steps;
    });
    expect(steps).toContainEqual({
      kind: 'approval',
      at: expect.any(Number),
      callId: expect.any(String),
      tool: 'test__echo',
      outcome: 'denied',
      by: 'the admin',
      reason: 'not today',
      waitedMs: expect.any(Number),
    });
    const stats = await test.store.adminStats({ since: 0, until: Date.now() + 1, offsetMs: 0 }, 5);
    expect(stats.tools.find((tool) => tool.tool === 'test__echo')).toMatchObject({ failed: 0 });
  });

  it('denies a call no one answers in time and tells the model; a late press has expired', async () => {
    test = await start({ APPROVAL_TIMEOUT_MS: '30' });
    test.fake.script({ toolCalls: [ECHO] }, { content: 'No approval came.' });
    const run = ask(test, 'echo hi');
    const pending = await run.approval();
    expect(await run.done).toMatchObject({ status: 'answered', text: 'No approval came.' });
    expect(run.observation()?.text).toMatch(/^Not run: no one approved this call of test__echo within 30 ms/);
    expect(await test.core.assistant.decideApproval!(pending.id, admin, { approve: true })).toMatchObject({
      status: 'expired',
    });
    expect(await recorded(test)).toMatchObject({
      outcome: 'expired',
    });
  });

  it('keeps the run timer still while a person decides', async () => {
    test = await start({ RUN_TIMEOUT_MS: '150' });
    test.fake.script({ toolCalls: [ECHO] }, { content: 'Echoed.' });
    const run = ask(test, 'echo hi');
    const pending = await run.approval();
    const waitingSince = Date.now();
    // The condition is time itself: more than RUN_TIMEOUT_MS passes while the call waits.
    await waitUntil(() => Date.now() - waitingSince > 400, { what: 'the run timeout to pass' });
    expect(run.events.some((e) => e.type === 'error')).toBe(false);
    await test.core.assistant.decideApproval!(
      pending.id,
      { principal: 'console:alice', name: 'alice' },
      { approve: true },
    );
    expect(await run.done).toMatchObject({ status: 'answered', text: 'Echoed.' });
  });

  it('Stop while waiting cancels the run; the request expires and is recorded as stopped', async () => {
    test = await start();
    test.fake.script({ toolCalls: [ECHO] });
    const stop = new AbortController();
    const run = ask(test, 'echo hi', 'console:room', stop);
    const pending = await run.approval();
    stop.abort();
    expect(await run.done).toEqual({ status: 'cancelled' });
    expect(await test.core.assistant.decideApproval!(pending.id, admin, { approve: true })).toMatchObject({
      status: 'expired',
    });
    expect(await recorded(test)).toMatchObject({
      outcome: 'stopped',
    });
  });

  it('once-per-channel: approved once, later calls in that channel run; another channel asks; revoking asks again', async () => {
    test = await start({}, { approval: 'once-per-channel' });
    const first = ask(test, 'echo hi');
    test.fake.script({ toolCalls: [ECHO] }, { content: 'one' });
    const pending = await first.approval();
    await test.core.assistant.decideApproval!(pending.id, admin, { approve: true });
    expect(await first.done).toMatchObject({ text: 'one' });

    test.fake.script({ toolCalls: [ECHO] }, { content: 'two' });
    const second = ask(test, 'echo again');
    expect(await second.done).toMatchObject({ text: 'two' });
    expect(second.events.some((e) => e.type === 'approval')).toBe(false);
    expect(second.observation()).toMatchObject({ ok: true, text: 'echo: hi' });

    const adminAsker: Asker = { ...alice, principal: 'slack:T1:UADMIN', platform: 'slack' };
    expect(await test.core.assistant.approvalsCommand!(adminAsker, 'console:room', '')).toMatch(
      /test__echo: asked once; approved here by slack:T1:UADMIN/,
    );
    expect(await test.core.assistant.approvalsCommand!(alice, 'console:room', 'revoke all')).toMatch(
      /Only admins/,
    );

    test.fake.script({ toolCalls: [ECHO] });
    const elsewhere = new AbortController();
    const other = ask(test, 'echo there', 'console:other', elsewhere);
    await other.approval();
    elsewhere.abort();
    expect(await other.done).toEqual({ status: 'cancelled' });
    expect(await test.core.assistant.approvalsCommand!(adminAsker, 'console:room', 'revoke test__echo')).toBe(
      'Revoked: test__echo asks again before it runs here.',
    );
    test.fake.script({ toolCalls: [ECHO] }, { content: 'three' });
    const third = ask(test, 'echo once more');
    await third.approval();
  });

  it('takes the policy per tool from mcp.json: a tool marked never runs at once, the server default asks', async () => {
    test = await start(
      { APPROVAL_DEFAULT_MCP: 'never' },
      { approval: 'always', tools: { echo: { approval: 'never' } } },
    );
    test.fake.script(
      { toolCalls: [ECHO] },
      { toolCalls: [{ name: 'test__fail', arguments: {} }] },
      { content: 'ok' },
    );
    const run = ask(test, 'echo then fail');
    const pending = await run.approval();
    expect(pending.tool).toBe('test__fail');
    expect(run.observation()).toMatchObject({ tool: 'test__echo', ok: true });
  });

  it('never asks for built-in tools', async () => {
    test = await start();
    test.fake.script(
      { toolCalls: [{ name: 'calculator', arguments: { expression: '2+2' } }] },
      { content: 'Four.' },
    );
    const run = ask(test, '2+2');
    expect(await run.done).toMatchObject({ text: 'Four.' });
    expect(run.events.some((e) => e.type === 'approval')).toBe(false);
  });
});
