import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunLog } from '../../src/core/ports/run-log-store.js';
import type { Store } from '../../src/core/ports/store.js';
import type { UsageRecord } from '../../src/core/ports/usage-store.js';
import type { StoreFixture } from './store-contract.js';

const T = Date.UTC(2026, 0, 15, 12);
const DAY = 86_400_000;
const OPEN = { rates: [], budgets: [] };

const record = (over: Partial<UsageRecord> = {}): UsageRecord => ({
  at: T,
  platform: 'slack',
  key: 'slack:T:C1',
  userId: 'slack:T:U1',
  model: 'gpt-a',
  protocol: 'tools',
  outcome: 'answered',
  modelCalls: 2,
  promptTokens: 100,
  completionTokens: 10,
  cachedTokens: 40,
  tools: { calculator: 1 },
  durationMs: 1200,
  ...over,
});

const logOf = (usageId: number, over: Partial<RunLog> = {}): RunLog => ({
  usageId,
  at: T,
  platform: 'slack',
  key: 'slack:T:C1',
  userId: 'slack:T:U1',
  question: 'What is 6 * 7? <b>bold</b>',
  answer: '42',
  steps: [
    { kind: 'thought', at: 5, step: 1, text: 'I should calculate.' },
    { kind: 'model', at: 10, step: 1, ms: 10, promptTokens: 60, completionTokens: 5, cachedTokens: 20 },
    { kind: 'action', at: 11, step: 1, callId: 'c1', tool: 'calculator', input: '{"expression":"6*7"}' },
    { kind: 'observation', at: 20, step: 1, callId: 'c1', tool: 'calculator', text: '42', ok: true, ms: 9 },
    { kind: 'action', at: 21, step: 1, callId: 'c2', tool: 'weather', input: '{}' },
    {
      kind: 'observation',
      at: 30,
      step: 1,
      callId: 'c2',
      tool: 'weather',
      text: 'timeout',
      ok: false,
      ms: 9,
    },
    { kind: 'answer', at: 40, text: '42' },
  ],
  ...over,
});

/** The run-log and admin-aggregate behaviour every store implementation must show. */
export function runLogsContract(name: string, open: () => Promise<StoreFixture>): void {
  describe(`run logs contract: ${name}`, () => {
    let f: StoreFixture;
    let store: Store;
    beforeEach(async () => {
      f = await open();
      store = f.store;
    });
    afterEach(async () => {
      await f.cleanup();
    });
    const period = { since: T - DAY, until: T + DAY };

    /** A question admitted and completed as the assistant does it; its usage id. */
    async function ran(over: Partial<UsageRecord> = {}): Promise<number> {
      const r = record(over);
      const admission = await store.admit(r, OPEN);
      if (!admission.admitted) throw new Error('not admitted');
      await store.complete(admission.id, r);
      return admission.id;
    }

    it('keeps a run’s steps and answer beside its usage record, and reads them back whole', async () => {
      const id = await ran();
      await store.saveRunLog(logOf(id));
      const run = await store.runDetail(id);
      expect(run).toMatchObject({
        id,
        platform: 'slack',
        key: 'slack:T:C1',
        userId: 'slack:T:U1',
        outcome: 'answered',
        promptTokens: 100,
        completionTokens: 10,
        cachedTokens: 40,
        durationMs: 1200,
        tools: { calculator: 1 },
        question: 'What is 6 * 7? <b>bold</b>',
      });
      expect(run?.log?.steps).toEqual(logOf(id).steps);
      expect(run?.log?.answer).toBe('42');
    });

    it('shows a run without a log (refused, or past retention) and nothing for an unknown id', async () => {
      const id = await ran({ outcome: 'refused', modelCalls: 0, promptTokens: 0, completionTokens: 0 });
      expect((await store.runDetail(id))?.log).toBeUndefined();
      expect(await store.runDetail(id + 1000)).toBeUndefined();
    });

    it('lists runs newest first, pages by cursor, filters and searches the kept text', async () => {
      const a = await ran();
      const b = await ran({ at: T + 1, platform: 'discord', key: 'discord:g:c', userId: 'discord:9' });
      const c = await ran({ at: T + 2, model: 'gpt-b' });
      await store.record(record({ at: T + 3, outcome: 'summary', userId: null }));
      await store.saveRunLog(logOf(a, { question: 'how is the 100% weather_today?' }));
      await store.saveRunLog(logOf(c, { question: 'something else' }));
      const ids = async (q: Partial<Parameters<Store['listRuns']>[0]>) =>
        (await store.listRuns({ ...period, limit: 10, ...q })).map((r) => r.id);
      expect(await ids({})).toEqual([c, b, a]);
      expect(await ids({ limit: 2 })).toEqual([c, b]);
      expect(await ids({ before: b })).toEqual([a]);
      expect(await ids({ platform: 'discord' })).toEqual([b]);
      expect(await ids({ model: 'gpt-b' })).toEqual([c]);
      expect(await ids({ userId: 'discord:9' })).toEqual([b]);
      expect(await ids({ search: 'WEATHER_today' })).toEqual([a]);
      expect(await ids({ search: '100%' })).toEqual([a]);
      expect(await ids({ search: '1_0' })).toEqual([]);
      // A search reads the kept logs only: their text, conversation and person.
      expect(await ids({ search: 'T:C1' })).toEqual([c, a]);
      expect(await ids({ search: 'discord:g' })).toEqual([]);
      expect((await store.listRuns({ ...period, limit: 10 }))[2]?.question).toBe(
        'how is the 100% weather_today?',
      );
    });

    it('counts votes cast on a conversation after a run and before its next answer', async () => {
      const a = await ran();
      const b = await ran({ at: T + 1000 });
      const voteOn = (userId: string, vote: 'up' | 'down', at: number) =>
        store.recordFeedback({ runId: `m${at}`, platform: 'slack', key: 'slack:T:C1', userId, vote, at });
      await voteOn('slack:T:U1', 'up', T + 500);
      await voteOn('slack:T:U2', 'down', T + 600);
      await voteOn('slack:T:U1', 'down', T + 2000);
      const runs = await store.listRuns({ ...period, limit: 10 });
      expect(runs.map((r) => [r.id, r.up, r.down])).toEqual([
        [b, 0, 1],
        [a, 1, 1],
      ]);
    });

    it('lists 👎 votes with a reason, newest first, with the answer each was about', async () => {
      const first = await ran({ at: T });
      await store.saveRunLog(logOf(first, { question: 'First question', answer: 'First answer' }));
      const second = await ran({ at: T + 1000 });
      await store.saveRunLog(
        logOf(second, { at: T + 1000, question: 'Second question', answer: 'Second answer' }),
      );
      const vote = { platform: 'slack', key: 'slack:T:C1', userId: 'slack:T:U9', vote: 'down' as const };
      await store.recordFeedback({ ...vote, runId: 'r1', comment: 'wrong year', at: T + 500 });
      await store.recordFeedback({ ...vote, runId: 'r2', comment: 'too long', at: T + 2000 });
      await store.recordFeedback({ ...vote, runId: 'r3', at: T + 2500 });
      await store.recordFeedback({ ...vote, runId: 'r4', vote: 'up', comment: 'great', at: T + 2600 });
      await store.recordFeedback({
        ...vote,
        key: 'slack:T:C7',
        runId: 'r5',
        comment: 'no run here',
        at: T + 2700,
      });
      const listed = await store.listDownvotes({ ...period, limit: 10 });
      expect(listed.map((d) => [d.runId, d.comment, d.usageId, d.question, d.answer])).toEqual([
        ['r5', 'no run here', null, null, null],
        ['r2', 'too long', second, 'Second question', 'Second answer'],
        ['r1', 'wrong year', first, 'First question', 'First answer'],
      ]);
      expect(listed[1]).toMatchObject({
        platform: 'slack',
        key: 'slack:T:C1',
        userId: 'slack:T:U9',
        at: T + 2000,
      });
      expect(await store.listDownvotes({ since: T + 1000, until: T + 2100, limit: 10 })).toHaveLength(1);
      expect(await store.listDownvotes({ ...period, limit: 1 })).toHaveLength(1);
    });

    it('drops logs past retention and a person’s logs when they are forgotten, never the usage', async () => {
      const old = await ran({ at: T - 20 * DAY });
      const mine = await ran();
      const theirs = await ran({ userId: 'slack:T:U2' });
      await store.saveRunLog(logOf(old, { at: T - 20 * DAY }));
      await store.saveRunLog(logOf(mine));
      await store.saveRunLog(logOf(theirs, { userId: 'slack:T:U2' }));
      expect(await store.pruneRunLogs(T - 14 * DAY)).toBe(1);
      expect((await store.runDetail(old))?.log).toBeUndefined();
      expect((await store.runDetail(old))?.outcome).toBe('answered');
      expect(await store.forgetRunLogs('slack:T:U1', 'slack:T:elsewhere')).toBe(0);
      expect(await store.forgetRunLogs('slack:T:U1', 'slack:T:C1')).toBe(1);
      expect((await store.runDetail(mine))?.log).toBeUndefined();
      expect(await store.forgetRunLogs('slack:T:U2')).toBe(1);
      await store.saveRunLog(logOf(theirs, { userId: 'slack:T:U2' }));
      expect((await store.runDetail(theirs))?.log).toBeDefined();
    });

    it('sums usage by day and platform, durations, top people, channels and tools for the admin page', async () => {
      const a = await ran();
      await ran({
        platform: 'discord',
        key: 'discord:g:c',
        userId: 'discord:9',
        durationMs: 4567,
        tools: {},
      });
      await ran({
        at: T + DAY / 2,
        userId: 'slack:T:U2',
        promptTokens: 1000,
        completionTokens: 0,
        tools: { calculator: 2, weather: 1 },
      });
      await store.record(
        record({
          outcome: 'refused',
          modelCalls: 0,
          promptTokens: 0,
          completionTokens: 0,
          cachedTokens: 0,
          tools: {},
        }),
      );
      await store.record(
        record({
          outcome: 'limited',
          modelCalls: 0,
          promptTokens: 0,
          completionTokens: 0,
          cachedTokens: 0,
          tools: {},
        }),
      );
      await store.record(record({ at: T - 3 * DAY }));
      await store.saveRunLog(logOf(a));
      await store.recordFeedback({
        runId: 'x',
        platform: 'slack',
        key: 'slack:T:C1',
        userId: 'slack:T:U1',
        vote: 'up',
        at: T,
      });
      const day = Math.floor(T / DAY);
      const stats = await store.adminStats({ ...period, offsetMs: 0 }, 10);
      expect(stats.daily).toEqual([
        {
          day,
          platform: 'discord',
          questions: 1,
          refused: 0,
          limited: 0,
          modelCalls: 2,
          promptTokens: 100,
          completionTokens: 10,
          cachedTokens: 40,
        },
        {
          day,
          platform: 'slack',
          questions: 1,
          refused: 1,
          limited: 1,
          modelCalls: 2,
          promptTokens: 100,
          completionTokens: 10,
          cachedTokens: 40,
        },
        {
          day: day + 1,
          platform: 'slack',
          questions: 1,
          refused: 0,
          limited: 0,
          modelCalls: 2,
          promptTokens: 1000,
          completionTokens: 0,
          cachedTokens: 40,
        },
      ]);
      expect(stats.durations.sort((x, y) => x.day - y.day || x.ms - y.ms)).toEqual([
        { day, ms: 1200, runs: 1 },
        { day, ms: 4500, runs: 1 },
        { day: day + 1, ms: 1200, runs: 1 },
      ]);
      expect(stats.topPeople.map((p) => [p.name, p.questions])).toEqual([
        ['slack:T:U2', 1],
        ['discord:9', 1],
        ['slack:T:U1', 1],
      ]);
      expect(stats.topChannels[0]).toEqual({
        name: 'slack:T:C1',
        questions: 2,
        promptTokens: 1100,
        completionTokens: 10,
      });
      expect(stats.tools).toEqual([
        { tool: 'calculator', calls: 3, failed: 0 },
        { tool: 'weather', calls: 1, failed: 1 },
      ]);
      expect(stats.votes).toEqual([{ day, up: 1, down: 0 }]);
      expect(stats.platforms).toEqual(['discord', 'slack']);
      expect(stats.models).toEqual(['gpt-a']);
      const byChannel = await store.adminStats({ ...period, offsetMs: 0, key: 'discord:g:c' }, 10);
      expect(byChannel.daily.map((d) => [d.platform, d.questions])).toEqual([['discord', 1]]);
      expect(byChannel.topPeople.map((p) => p.name)).toEqual(['discord:9']);
      expect(byChannel.durations).toEqual([{ day, ms: 4500, runs: 1 }]);
      const byPerson = await store.adminStats({ ...period, offsetMs: 0, userId: 'slack:T:U2' }, 10);
      expect(byPerson.daily.map((d) => [d.day, d.promptTokens])).toEqual([[day + 1, 1000]]);
      expect(byPerson.tools).toEqual([
        { tool: 'calculator', calls: 2, failed: 0 },
        { tool: 'weather', calls: 1, failed: 0 },
      ]);
      const byModel = await store.adminStats({ ...period, offsetMs: 0, model: 'gpt-a' }, 10);
      expect(byModel.topPeople).toEqual(stats.topPeople);
      expect(await store.adminStats({ ...period, offsetMs: 0, model: 'gpt-z' }, 10)).toMatchObject({
        daily: [],
        topPeople: [],
        tools: [],
      });
      const narrowed = await store.adminStats({ ...period, offsetMs: 0, platform: 'discord' }, 10);
      expect(narrowed.daily.map((d) => d.platform)).toEqual(['discord']);
      expect(narrowed.tools).toEqual([]);
      const shifted = await store.adminStats({ ...period, offsetMs: 12 * 3_600_000 }, 10);
      expect(shifted.daily.map((d) => [d.day, d.platform, d.questions])).toEqual([
        [day + 1, 'discord', 1],
        [day + 1, 'slack', 2],
      ]);
    });

    it('does not count a call a person denied, or that was not approved in time, as a failing tool', async () => {
      const id = await ran({ tools: { deploy: 3 } });
      const call = (callId: string, outcome: 'approved' | 'denied' | 'expired', ok: boolean) => [
        { kind: 'action' as const, at: 1, step: 1, callId, tool: 'deploy', input: '{}' },
        { kind: 'approval' as const, at: 2, callId, tool: 'deploy', outcome, by: 'Sam', waitedMs: 1 },
        { kind: 'observation' as const, at: 3, step: 1, callId, tool: 'deploy', text: 'x', ok, ms: 1 },
      ];
      const steps = [
        ...call('a', 'denied', false),
        ...call('b', 'expired', false),
        ...call('c', 'approved', false),
      ];
      await store.saveRunLog(logOf(id, { steps }));
      const stats = await store.adminStats({ ...period, offsetMs: 0 }, 10);
      expect(stats.tools).toEqual([{ tool: 'deploy', calls: 3, failed: 1 }]);
      expect((await store.runDetail(id))?.log?.steps).toEqual(steps);
    });

    it('lists every saved channel setting for the settings overview', async () => {
      await store.setSettings('slack:T:C2', { model: 'gpt-b' });
      await store.setSettings('discord:g:c', { protocol: 'react', model: 'gpt-a' });
      expect(await store.adminChannelSettings()).toEqual([
        { key: 'discord:g:c', name: 'model', value: 'gpt-a' },
        { key: 'discord:g:c', name: 'protocol', value: 'react' },
        { key: 'slack:T:C2', name: 'model', value: 'gpt-b' },
      ]);
    });
  });
}
