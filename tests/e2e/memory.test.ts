import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AgentEvent } from '../../src/core/agent/events.js';
import { countTokens, MESSAGE_OVERHEAD_TOKENS, turnTokens } from '../../src/core/memory/tokens.js';
import { quote } from '../../src/core/util/untrusted.js';
import { chatResponder, echoSummary, isSummaryRequest, shownText } from '../core/memory/fixture.js';
import type { RecordedRequest } from '../fakes/openai-server.js';
import { startTestCore, type TestCore } from '../helpers/test-core.js';

/** Waiting for background work (compression, a spawned bot) has no deadline worth asserting. */
const WAIT = { timeout: 15_000, interval: 10 };

const KEY = 'console:local';

// 200 real turns through the real core take seconds on a loaded machine.
describe('channel memory through the real core', { timeout: 60_000 }, () => {
  let tc: TestCore;
  afterEach(() => tc.close());

  const ask = (text: string, key = KEY, author = 'alice', signal?: AbortSignal, events: AgentEvent[] = []) =>
    tc.core.assistant.ask({ key, author, text, signal }, (e) => events.push(e));
  const agentRequests = () => tc.fake.requests.filter((r) => !isSummaryRequest(r));
  const summaryRequests = () => tc.fake.requests.filter(isSummaryRequest);
  const requestTokens = (r: RecordedRequest) =>
    r.body.messages.reduce((n, m) => n + countTokens(String(m.content ?? '')) + MESSAGE_OVERHEAD_TOKENS, 0);

  it('compresses when the thresholds say; the next prompt holds the summary and the kept turns', async () => {
    const questions = [1, 2, 3, 4, 5].map((n) => `Question number ${n} about the weather in town`);
    // The fake answers "ok: [alice] <question>"; three turns fill the budget exactly.
    const sizes = questions.map((q) =>
      turnTokens({ author: 'alice', question: q, answer: `ok: [alice] ${q}` }),
    );
    tc = await startTestCore(
      { MEMORY_MAX_TOKENS: String(sizes[0]! + sizes[1]! + sizes[2]!), MEMORY_KEEP_TURNS: '2' },
      { fallback: chatResponder },
    );
    for (const q of questions.slice(0, 4)) expect((await ask(q)).status).toBe('answered');
    await vi.waitFor(async () => expect((await tc.core.assistant.memory(KEY)).summarizedTurns).toBe(2), WAIT);

    expect(summaryRequests()).toHaveLength(1);
    const folded = shownText(summaryRequests()[0]!);
    expect(folded).toContain(`[alice] ${questions[0]}\nAssistant: ok: [alice] ${questions[0]}`);
    expect(folded).toContain(`[alice] ${questions[1]}`);
    expect(folded).not.toContain(questions[2]);
    expect(folded).not.toContain(questions[3]);

    await ask(questions[4]!);
    const messages = agentRequests().at(-1)!.body.messages;
    // The summary and the kept turns retell what people said: quoted history, not instructions.
    expect(messages[1]).toEqual({
      role: 'user',
      content: `Summary of the earlier conversation:\n${quote('history', echoSummary(summaryRequests()[0]!))}`,
    });
    expect(messages.slice(2).map((m) => [m.role, m.content])).toEqual([
      ['user', quote('history', questions[2]!, { author: 'alice' })],
      ['assistant', `ok: [alice] ${questions[2]}`],
      ['user', quote('history', questions[3]!, { author: 'alice' })],
      ['assistant', `ok: [alice] ${questions[3]}`],
      ['system', expect.stringMatching(/^Current time: /)],
      ['user', `[alice] ${questions[4]}`],
    ]);
    await tc.close();
    expect(summaryRequests()).toHaveLength(1);
  });

  it('still shows the model a fact from turn 1 at turn 200, with every prompt bounded', async () => {
    const budget = { max: 300, summary: 120 };
    tc = await startTestCore(
      {
        MEMORY_MAX_TOKENS: String(budget.max),
        MEMORY_KEEP_TURNS: '2',
        MEMORY_SUMMARY_MAX_TOKENS: String(budget.summary),
      },
      { fallback: chatResponder },
    );
    await ask('Remember: my project is called Atlas.');
    for (let n = 2; n <= 200; n++) {
      expect((await ask(`Question ${n}: what is ${n} times ${n + 1}? Take your time.`)).status).toBe(
        'answered',
      );
    }
    const requests = agentRequests();
    expect(requests).toHaveLength(200);
    const system = countTokens(String(requests[0]!.body.messages[0]!.content)) + MESSAGE_OVERHEAD_TOKENS;
    // System prompt, summary, turns (at most twice the budget even if compression lags), new message.
    const bound = system + budget.summary + 20 + 2 * budget.max + 40;
    for (const r of requests) expect(requestTokens(r)).toBeLessThanOrEqual(bound);
    const last = shownText(requests.at(-1)!);
    expect(last).toContain('my project is called Atlas');
    expect(last).not.toContain('Question 100:');
    await tc.core.close();
    expect(summaryRequests().length).toBeGreaterThan(10);
  });

  it('loses nothing while the summariser fails, and catches up once it is back', async () => {
    let failing = true;
    tc = await startTestCore(
      { MEMORY_MAX_TOKENS: '100', MEMORY_KEEP_TURNS: '1' },
      { fallback: (r) => (isSummaryRequest(r) && failing ? { status: 500 } : chatResponder(r)) },
    );
    await ask('Remember: the launch code is 4711.');
    for (let n = 2; n <= 8; n++) await ask(`Question ${n} about something else entirely.`);
    await vi.waitFor(() => expect(summaryRequests().length).toBeGreaterThan(0), WAIT);
    // Every answer was still delivered and every turn is still stored.
    expect(agentRequests()).toHaveLength(8);
    expect(await tc.core.assistant.memory(KEY)).toMatchObject({
      turns: 8,
      summarizedTurns: 0,
      summary: null,
    });

    failing = false;
    await ask('Question 9.');
    await vi.waitFor(
      async () => expect((await tc.core.assistant.memory(KEY)).summarizedTurns).toBeGreaterThan(0),
      WAIT,
    );
    await tc.core.assistant.close();
    const report = await tc.core.assistant.memory(KEY);
    expect(report.summarizedTurns + report.turns).toBe(9);
    expect(report.summary).toContain('the launch code is 4711');
  });

  it('keeps two channels from seeing each other', async () => {
    tc = await startTestCore(
      { MEMORY_MAX_TOKENS: '80', MEMORY_KEEP_TURNS: '1' },
      { fallback: chatResponder },
    );
    const a = 'discord:guild1:chan1';
    const b = 'slack:team1:chan9';
    await ask('Remember: my password hint is Zebra.', a);
    for (let n = 2; n <= 5; n++) await ask(`Small talk ${n} in channel A.`, a);
    await vi.waitFor(
      async () => expect((await tc.core.assistant.memory(a)).summarizedTurns).toBeGreaterThan(0),
      WAIT,
    );
    await ask('What is my password hint?', b, 'bob');
    const shownToB = shownText(agentRequests().at(-1)!);
    expect(shownToB).toContain('[bob] What is my password hint?');
    expect(shownToB).not.toContain('Zebra');
    expect(shownToB).not.toContain('channel A');
    expect(await tc.core.assistant.memory(b)).toMatchObject({ turns: 1, summarizedTurns: 0, summary: null });

    await tc.core.assistant.reset(b);
    expect((await tc.core.assistant.memory(a)).summary).toContain('Zebra');
  });

  it('runs questions arriving together in one channel in order, each seeing the earlier answers', async () => {
    tc = await startTestCore({}, { fallback: chatResponder });
    const questions = ['first?', 'second?', 'third?', 'fourth?'];
    const outcomes = await Promise.all(questions.map((q, i) => ask(q, KEY, `user${i}`)));
    expect(outcomes.map((o) => o.status)).toEqual(['answered', 'answered', 'answered', 'answered']);
    const requests = agentRequests();
    for (let i = 0; i < questions.length; i++) {
      const users = requests[i]!.body.messages.filter((m) => m.role === 'user').map((m) => m.content);
      expect(users).toEqual(
        questions
          .slice(0, i + 1)
          .map((q, j) => (j === i ? `[user${j}] ${q}` : quote('history', q, { author: `user${j}` }))),
      );
    }
  });

  it('answers busy at once when the channel queue is full, and a cancelled run stores nothing', async () => {
    tc = await startTestCore({ MAX_QUEUED_PER_CHANNEL: '0' });
    tc.fake.script({ hang: true });
    const abort = new AbortController();
    const events: AgentEvent[] = [];
    const hanging = ask('This will be cancelled.', KEY, 'alice', abort.signal, events);
    await vi.waitFor(() => expect(tc.fake.requests).toHaveLength(1), WAIT);

    const busyEvents: AgentEvent[] = [];
    const busy = await ask('Me too!', KEY, 'bob', undefined, busyEvents);
    expect(busy).toMatchObject({
      status: 'busy',
      message: expect.stringMatching(/busy.*try again shortly/i),
    });
    expect(busyEvents).toEqual([
      { type: 'error', code: 'busy', message: busy.status === 'busy' ? busy.message : '' },
    ]);
    expect(tc.fake.requests).toHaveLength(1);

    abort.abort();
    expect(await hanging).toEqual({ status: 'cancelled' });
    expect((await tc.core.assistant.memory(KEY)).turns).toBe(0);

    tc.fake.script({ content: 'Answered now.' });
    expect(await ask('Again?')).toMatchObject({ status: 'answered', text: 'Answered now.' });
    const report = await tc.core.assistant.memory(KEY);
    expect(report.turns).toBe(1);
  });
});
