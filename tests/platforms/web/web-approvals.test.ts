import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WebApproval, WebRun } from '../../../src/platforms/web/web-run.js';
import { stdioTestServer, writeMcpJson } from '../../mcp/mcp-fixture.js';
import { startWebBed, stepsText, type WebBed, WebUser } from './web-harness.js';

const ECHO = { toolCalls: [{ name: 'test__echo', arguments: { text: '<b>hi</b>' } }] };

describe('the web chat: tool calls that wait for approval (HTTP)', () => {
  let bed: WebBed | undefined;
  let dir: string;
  const users: WebUser[] = [];
  const user = () => {
    const u = new WebUser(bed!.url);
    users.push(u);
    return u;
  };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'thinkthread-web-approvals-'));
  });
  afterEach(async () => {
    for (const u of users.splice(0)) u.close();
    await bed?.close();
    bed = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  const start = async (env: Record<string, string> = {}, server: Record<string, unknown> = {}) => {
    bed = await startWebBed({
      MCP_CONNECT_TIMEOUT_MS: '60000',
      MCP_CONFIG: writeMcpJson(dir, { test: { ...stdioTestServer(), ...server } }),
      ...env,
    });
    return bed;
  };

  /** Asks without waiting for the end; resolves with the run's id and its first pending approval. */
  const askAndWait = async (u: WebUser, text: string) => {
    const feed = await u.stream();
    const from = feed.events.length;
    const sent = await u.client.request('/api/ask', { text });
    expect(sent.status).toBe(202);
    const id = String(sent.body?.id);
    const event = await feed.next(
      (e) => e.event === 'approvals' && (e.data as { approvals: WebApproval[] }).approvals.length > 0,
      from,
    );
    const ended = () =>
      feed.next(
        (e) =>
          e.event === 'run' &&
          (e.data as WebRun).id === id &&
          (e.data as WebRun).phase !== 'thinking' &&
          (e.data as WebRun).phase !== 'streaming',
        from,
      );
    return { id, approval: (event.data as { approvals: WebApproval[] }).approvals[0]!, ended };
  };

  const press = (u: WebUser, body: Record<string, unknown>) => u.client.request('/api/approve', body);

  it('shows the pending call with its exact arguments; the asker approves once, a second press has expired', async () => {
    const b = await start();
    b.test.fake.script(ECHO, { content: 'Echoed.' });
    const alice = user();
    const run = await askAndWait(alice, 'echo it');
    expect(run.approval).toMatchObject({
      tool: 'test__echo',
      args: '{\n  "text": "<b>hi</b>"\n}',
      waiting: 'Waiting for approval of test__echo…',
    });
    expect((await press(alice, { id: run.approval.id, approve: true })).body).toEqual({ status: 'approved' });
    expect((await press(alice, { id: run.approval.id, approve: false })).body).toEqual({
      status: 'expired',
      message: 'This request has expired.',
    });
    const ended = (await run.ended()).data as WebRun;
    expect(ended).toMatchObject({ phase: 'final', answer: 'Echoed.' });
    expect(ended.approvals).toBeUndefined();
    expect(stepsText(ended)).toMatch(/test__echo approved by web user\.\nObservation: echo: <b>hi<\/b>/);
  });

  it('a denial carries its reason to the model; the tool does not run', async () => {
    const b = await start();
    b.test.fake.script(ECHO, { content: 'Not echoed.' });
    const alice = user();
    const run = await askAndWait(alice, 'echo it');
    expect(
      (await press(alice, { id: run.approval.id, approve: false, reason: 'no HTML please' })).body,
    ).toEqual({ status: 'denied' });
    const ended = (await run.ended()).data as WebRun;
    expect(stepsText(ended)).toMatch(
      /test__echo denied by web user: no HTML please\.\nObservation: Not run: /,
    );
    expect(JSON.stringify(b.test.fake.requests[1]!.body.messages)).toContain('Their reason: no HTML please');
  });

  it('refuses a stranger privately, and bad input with one sentence', async () => {
    const b = await start();
    b.test.fake.script(ECHO, { content: 'Echoed.' });
    const alice = user();
    const stranger = user();
    const run = await askAndWait(alice, 'echo it');
    expect((await press(stranger, { id: run.approval.id, approve: true })).body).toEqual({
      status: 'forbidden',
      message: 'Only the asker or an admin can approve this.',
    });
    const long = await press(alice, { id: run.approval.id, approve: false, reason: 'x'.repeat(1001) });
    expect(long.status).toBe(400);
    expect(long.body?.error).toMatch(/a reason has at most 1000 characters/);
    expect((await press(alice, { id: run.approval.id, approve: true })).body).toEqual({ status: 'approved' });
    expect(((await run.ended()).data as WebRun).answer).toBe('Echoed.');
  });

  it('no press in time: the call is denied, the model told, the buttons go away', async () => {
    const b = await start({ APPROVAL_TIMEOUT_MS: '50' });
    b.test.fake.script(ECHO, { content: 'Nobody approved.' });
    const alice = user();
    const run = await askAndWait(alice, 'echo it');
    const ended = (await run.ended()).data as WebRun;
    expect(ended.answer).toBe('Nobody approved.');
    expect(stepsText(ended)).toMatch(/test__echo was not approved in time, so it did not run\./);
    const feed = await alice.stream();
    expect(
      feed.events.some(
        (e) => e.event === 'approvals' && (e.data as { approvals: unknown[] }).approvals.length === 0,
      ),
    ).toBe(true);
    expect((await press(alice, { id: run.approval.id, approve: true })).body).toMatchObject({
      status: 'expired',
    });
  });

  it('Stop while waiting ends the run as cancelled; a later press has expired', async () => {
    const b = await start();
    b.test.fake.script(ECHO);
    const alice = user();
    const run = await askAndWait(alice, 'echo it');
    expect((await alice.client.request('/api/stop', {})).status).toBe(204);
    expect(((await run.ended()).data as WebRun).phase).toBe('cancelled');
    expect((await press(alice, { id: run.approval.id, approve: true })).body).toMatchObject({
      status: 'expired',
    });
  });

  it('once-per-channel: after one approval the tool runs without asking in this chat', async () => {
    const b = await start({}, { approval: 'once-per-channel' });
    b.test.fake.script(ECHO, { content: 'one' }, ECHO, { content: 'two' });
    const alice = user();
    const run = await askAndWait(alice, 'echo it');
    await press(alice, { id: run.approval.id, approve: true });
    await run.ended();
    const second = await alice.ask('echo again');
    expect(second.answer).toBe('two');
    expect(stepsText(second)).not.toMatch(/approved by/);
  });
});
