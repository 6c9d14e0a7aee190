import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resumerThrough } from '../../../src/core/approvals/resume-through.js';
import { parseRunActionId } from '../../../src/platforms/shared/run-actions.js';
import { WORDING } from '../../../src/platforms/shared/wording.js';
import { COMPONENTS_V2_RULES } from '../../fakes/discord-components-v2.js';
import type { FakeMessage } from '../../fakes/discord-server.js';
import { waitUntil } from '../../helpers/wait-until.js';
import { stdioTestServer, writeMcpJson } from '../../mcp/mcp-fixture.js';
import { askForApproval, buttonIds, press } from './approval-steps.js';
import { type DiscordBed, startDiscordBed } from './harness.js';

const ECHO = { toolCalls: [{ name: 'test__echo', arguments: { text: 'hi' } }] };
const RESUMED = '▶️ Going on after a restart';
const EXPIRED = { type: 4, data: { content: 'This request has expired.', flags: 64 } };
/** Discord's close code after which a client does not reconnect (4011 Sharding required). */
const GONE_FOR_GOOD = 4011;

/**
 * Approvals that outlive the bot process on Discord: the real discord.js client of each process on one fake
 * Discord, the processes on one SQLite database, as two replicas or a bot and its restart would be.
 */
describe('Discord: approvals across a restart and across replicas', () => {
  let dir: string;
  let beds: DiscordBed[] = [];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'thinkthread-discord-approvals-restart-'));
  });
  afterEach(async () => {
    // The fake belongs to the first process; the others leave it running.
    for (const bed of beds.reverse()) await bed.close();
    beds = [];
    rmSync(dir, { recursive: true, force: true });
  });

  const databaseUrl = () => `sqlite:${join(dir, 'thinkthread.db')}`;

  /** A bot process on the shared database (and on `on`'s fake Discord, when given), going on with orphans as the root does. */
  async function botProcess(
    approvals: { beatMs: number; staleMs: number },
    on?: DiscordBed,
    env: Record<string, string> = {},
  ) {
    const bed = await startDiscordBed(
      {
        // Classic prompts unless `env` says otherwise (their text is read below).
        DISCORD_COMPONENTS_V2: 'false',
        MCP_CONNECT_TIMEOUT_MS: '60000',
        MCP_CONFIG: writeMcpJson(dir, { test: stdioTestServer() }),
        SHUTDOWN_GRACE_MS: '20',
        ...env,
      },
      { databaseUrl: databaseUrl(), approvals, ...(on ? { fake: on.discord } : {}) },
    );
    beds.push(bed);
    bed.test.core.approvals?.start(resumerThrough({ discord: bed.adapter.systemRuns! }));
    return bed;
  }

  /** The bot's messages in the channel that go on with a run after a restart. */
  const resumedAnswers = (b: DiscordBed) =>
    b.discord
      .messages(b.discord.channelId)
      .filter((m) => m.author.id === b.discord.bot.id && m.content.includes(RESUMED));

  /** Everything the steps thread of `message` shows. */
  const stepsOf = (b: DiscordBed, message: FakeMessage) =>
    b.discord
      .messages(message.id)
      .map((m) => m.content)
      .join('\n');

  it('after a restart, Approve on the old message goes on with the run in a new answer, once', async () => {
    const before = await botProcess({ beatMs: 0, staleMs: 1 });
    before.model.script(ECHO);
    const { reply, approval } = await askForApproval(before, 'please echo hi');
    const [approveId] = buttonIds(approval);

    // SIGTERM: the run still waits after SHUTDOWN_GRACE_MS, so it is cancelled; its call is kept.
    await before.shutdown();
    expect(reply.content).toBe(`⚠️ ${WORDING.restartedWaiting}`);
    expect(buttonIds(reply)).toEqual([]); // no Stop on a run that ended
    expect(buttonIds(approval)).toHaveLength(2);
    expect(approval.content).toMatch(/^\*\*Approval needed:\*\* `test__echo`/);

    const after = await botProcess({ beatMs: 0, staleMs: 1 }, before);
    after.model.script({ content: 'Echoed after the restart.' });
    const bob = after.discord.user('bob');
    expect(await press(after, approval, approveId!, bob)).toMatchObject({
      type: 4,
      data: { content: 'Only the asker or an admin can approve this.', flags: 64 },
    });
    expect(resumedAnswers(after)).toEqual([]);

    // The press itself closes the old approval message (its run's renderer died with process A).
    expect((await press(after, approval, approveId!, before.alice)).type).toBe(7);
    await waitUntil(() => buttonIds(approval).length === 0, { what: 'the old approval buttons to go' });
    expect(approval.content).toMatch(/^\*\*Approval needed:\*\* `test__echo`/);
    expect(approval.content).toMatch(/\n\*\*test__echo approved by alice\.\*\*$/);
    let resumed: FakeMessage | undefined;
    await waitUntil(
      () => {
        resumed = resumedAnswers(after)[0];
        return resumed?.content.endsWith('Echoed after the restart.') === true;
      },
      { what: () => `the answer going on after the restart (now "${resumed?.content}")` },
    );
    expect(resumed!.content).toBe(
      `-# ${RESUMED} (test__echo approved by alice), for alice: please echo hi\nEchoed after the restart.`,
    );
    await after.adapter.idle();
    expect(resumedAnswers(after)).toHaveLength(1);
    // Its steps show the call, who approved it and what it returned; the model went on from there, once.
    const steps = stepsOf(after, resumed!);
    expect(steps).toContain('test__echo');
    expect(steps).toContain('approved by alice');
    expect(steps.match(/echo: hi/g)).toHaveLength(1);
    expect(after.model.requests).toHaveLength(1);
    expect(JSON.stringify(after.model.requests[0]!.body.messages)).toContain('echo: hi');
    // The old answer still says what happened to it; nothing else was posted.
    expect(reply.content).toBe(`⚠️ ${WORDING.restartedWaiting}`);

    expect(await press(after, approval, approveId!, before.alice)).toMatchObject(EXPIRED);
    await after.test.core.approvals?.sweep();
    await after.adapter.idle();
    expect(resumedAnswers(after)).toHaveLength(1);
  });

  it('a components v2 prompt pressed after a restart is closed as a card: who decided, no buttons', async () => {
    const v2 = { DISCORD_COMPONENTS_V2: 'true' };
    const before = await botProcess({ beatMs: 0, staleMs: 1 }, undefined, v2);
    before.model.script(ECHO);
    const { approval } = await askForApproval(before, 'please echo hi');
    const [approveId] = buttonIds(approval);
    expect(approval.flags & COMPONENTS_V2_RULES.flag).toBe(COMPONENTS_V2_RULES.flag);
    await before.shutdown();
    expect(buttonIds(approval)).toHaveLength(2);

    const after = await botProcess({ beatMs: 0, staleMs: 1 }, before, v2);
    after.model.script({ content: 'Echoed after the restart.' });
    const pressed = await press(after, approval, approveId!, before.alice);
    expect(pressed.type).toBe(7);
    expect(pressed.data.content).toBeUndefined();
    await waitUntil(() => buttonIds(approval).length === 0, { what: 'the old approval buttons to go' });
    const texts = (approval.components[0].components as { type: number; content?: string }[])
      .filter((c) => c.type === 10)
      .map((c) => c.content);
    expect(texts[0]).toBe('**Approval needed:** `test__echo`');
    expect(texts.at(-1)).toBe('**test__echo approved by alice.**');
    await waitUntil(() => resumedAnswers(after)[0]?.content.endsWith('Echoed after the restart.') === true, {
      what: 'the answer going on after the restart',
    });
    await after.adapter.idle();
    expect(after.discord.calls.filter((c) => c.status >= 400)).toEqual([]);
  });

  it('a press while the bot shuts down is answered privately and decides nothing: the call stays kept', async () => {
    // Long enough a grace period to press during it; the waiting run holds the drain for all of it.
    const before = await botProcess({ beatMs: 0, staleMs: 1 }, undefined, { SHUTDOWN_GRACE_MS: '1500' });
    before.model.script(ECHO);
    const { approval } = await askForApproval(before, 'please echo hi');
    const [approveId] = buttonIds(approval);
    const stopping = before.adapter.stop();
    expect(await press(before, approval, approveId!, before.alice)).toMatchObject({
      type: 4,
      data: { content: WORDING.shuttingDown, flags: 64 },
    });
    await stopping;
    const [kept] = await before.test.store.listApprovals({ since: 0, until: Date.now() + 1 });
    expect(kept).toBeUndefined();
    expect(buttonIds(approval)).toHaveLength(2);
    const waiting = await before.test.store.getWait(parseRunActionId(approveId!)!.runId);
    expect(waiting).toMatchObject({ tool: 'test__echo' });
    expect(waiting?.decision).toBeUndefined();
  });

  it('a press on the replica that did not run the question goes on with the run where it waited', async () => {
    const runner = await botProcess({ beatMs: 20, staleMs: 60_000 });
    runner.model.script(ECHO, { content: 'Echoed on the runner.' });
    const { question, reply, approval } = await askForApproval(runner, 'echo hi');
    const [approveId] = buttonIds(approval);
    // The runner's gateway session ends for good (its process, its run and its REST calls go on), and the
    // other replica is the one connected when alice presses.
    await runner.discord.closeSession(0, GONE_FOR_GOOD);
    const other = await botProcess({ beatMs: 20, staleMs: 60_000 }, runner);
    expect(runner.discord.sessions()).toBe(1);

    // The press closes the approval message at once; the runner's own edit says the same.
    expect((await press(other, approval, approveId!, runner.alice)).type).toBe(7);
    await waitUntil(() => reply.content === 'Echoed on the runner.', {
      what: () => `the runner's answer (now "${reply.content}")`,
    });
    await waitUntil(() => buttonIds(approval).length === 0, { what: 'the approval buttons to go' });
    expect(approval.content).toMatch(/\n\*\*test__echo approved by alice\.\*\*$/);
    expect(stepsOf(runner, reply)).toContain('echo: hi');

    // A later press finds nothing to decide; the other replica answered nothing.
    expect(await press(other, approval, approveId!, runner.alice)).toMatchObject(EXPIRED);
    await other.test.core.approvals?.sweep();
    await other.adapter.idle();
    await runner.adapter.idle();
    expect(other.model.requests).toHaveLength(0);
    expect(resumedAnswers(other)).toEqual([]);
    const answers = other.discord
      .messages(other.discord.channelId)
      .filter((m) => m.author.id === other.discord.bot.id);
    expect(answers).toEqual([reply]);
    expect(answers[0]!.message_reference?.message_id).toBe(question.id);
  });
});
