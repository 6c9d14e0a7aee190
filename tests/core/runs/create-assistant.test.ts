import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../src/core/agent/events.js';
import type { Assistant } from '../../../src/core/assistant.js';
import { countTokens } from '../../../src/core/memory/tokens.js';
import { createAssistant } from '../../../src/core/runs/create-assistant.js';
import { BUSY_MESSAGE } from '../../../src/core/runs/run-replies.js';
import {
  echoSummary,
  isSummaryRequest,
  type MemoryFixture,
  shownText,
  startMemoryFixture,
} from '../memory/fixture.js';
import { createGatedAgent, createPromptAgent, type GatedAgent } from './fake-agents.js';

const limits = { MAX_CONCURRENT_RUNS: 16, MAX_QUEUED_PER_CHANNEL: 5 };

describe('assistant with a gated agent', () => {
  let fx: MemoryFixture;
  let agent: GatedAgent;
  let assistant: Assistant;
  afterEach(async () => {
    await assistant.close();
    await fx.close();
  });

  async function setup(overrides: Partial<typeof limits> = {}) {
    fx = await startMemoryFixture();
    agent = createGatedAgent();
    assistant = createAssistant({ agent, memory: fx.memory, limits: { ...limits, ...overrides } });
  }
  const ask = (text: string, key = 'k', signal?: AbortSignal, events: AgentEvent[] = []) =>
    assistant.ask({ key, author: 'alice', text, signal }, (e) => events.push(e));

  it('stores the turn when the run answered, and the next run sees it', async () => {
    await setup();
    const first = ask('My project is Atlas.');
    await agent.started(1);
    expect(agent.runs[0]!.input.context).toEqual({ summary: undefined, turns: [] });
    agent.runs[0]!.answer('Noted.');
    expect(await first).toMatchObject({ status: 'answered', text: 'Noted.' });
    const second = ask('What is my project?');
    await agent.started(2);
    expect(agent.runs[1]!.input.context.turns).toEqual([
      { author: 'alice', question: 'My project is Atlas.', answer: 'Noted.' },
    ]);
    agent.runs[1]!.answer('Atlas.');
    await second;
    expect(await assistant.memory('k')).toMatchObject({ turns: 2, summarizedTurns: 0 });
  });

  it('stores nothing for a failed run', async () => {
    await setup();
    const pending = ask('Hello?');
    await agent.started(1);
    agent.runs[0]!.finish({ status: 'failed', code: 'model_unavailable', message: 'down' });
    expect(await pending).toEqual({ status: 'failed', code: 'model_unavailable', message: 'down' });
    expect((await assistant.memory('k')).turns).toBe(0);
  });

  it('stores nothing for a cancelled run, even one cancelled as its answer came in', async () => {
    await setup();
    const abort = new AbortController();
    const running = ask('Long question', 'k', abort.signal);
    await agent.started(1);
    abort.abort();
    expect(await running).toEqual({ status: 'cancelled' });

    const late = new AbortController();
    const racing = ask('Another', 'k', late.signal);
    await agent.started(2);
    // The agent reports an answer, and the asker cancels before the assistant gets to store it.
    agent.runs[1]!.answer('Too late.');
    late.abort();
    expect(await racing).toEqual({ status: 'cancelled' });
    expect((await assistant.memory('k')).turns).toBe(0);
  });

  it('runs one channel in arrival order, each run seeing every earlier answer', async () => {
    await setup();
    const questions = ['q1', 'q2', 'q3', 'q4', 'q5'];
    const outcomes = questions.map((q) => ask(q));
    const other = ask('elsewhere', 'other-channel');
    await agent.started(2);
    // The other channel runs alongside; this channel runs one at a time.
    expect(agent.runs.map((r) => r.input.message)).toEqual(['q1', 'elsewhere']);
    expect(agent.active()).toBe(2);
    agent.runs[1]!.answer('other answer');
    for (let i = 0; i < questions.length; i++) {
      await agent.started(i + 2);
      const run = agent.runs.filter((r) => r.input.message !== 'elsewhere')[i]!;
      expect(run.input.message).toBe(questions[i]);
      expect(run.input.context.turns.map((t) => t.question)).toEqual(questions.slice(0, i));
      run.answer(`a${i + 1}`);
      await outcomes[i];
    }
    await other;
    expect((await assistant.memory('other-channel')).turns).toBe(1);
    const ctx = await fx.memory.context('k');
    expect(ctx.turns.map((t) => t.answer)).toEqual(['a1', 'a2', 'a3', 'a4', 'a5']);
  });

  it('answers busy at once, with an error event, when the channel queue is full', async () => {
    await setup({ MAX_QUEUED_PER_CHANNEL: 1 });
    const first = ask('one');
    const second = ask('two');
    const events: AgentEvent[] = [];
    const third = await ask('three', 'k', undefined, events);
    expect(third).toEqual({ status: 'busy', message: BUSY_MESSAGE });
    expect(BUSY_MESSAGE).toMatch(/busy.*try again shortly/i);
    expect(events).toEqual([{ type: 'error', code: 'busy', message: BUSY_MESSAGE }]);
    await agent.started(1);
    agent.runs[0]!.answer('1');
    await agent.started(2);
    agent.runs[1]!.answer('2');
    await Promise.all([first, second]);
    expect(agent.runs.map((r) => r.input.message)).toEqual(['one', 'two']);
    expect((await assistant.memory('k')).turns).toBe(2);
  });

  it('drops a queued question whose signal aborts: it never runs and stores nothing', async () => {
    await setup();
    const first = ask('one');
    const abort = new AbortController();
    const events: AgentEvent[] = [];
    const queued = ask('two', 'k', abort.signal, events);
    const third = ask('three');
    abort.abort();
    expect(await queued).toEqual({ status: 'cancelled' });
    expect(events).toEqual([{ type: 'error', code: 'cancelled', message: 'Cancelled.' }]);
    await agent.started(1);
    agent.runs[0]!.answer('1');
    await agent.started(2);
    agent.runs[1]!.answer('3');
    await Promise.all([first, third]);
    expect(agent.runs.map((r) => r.input.message)).toEqual(['one', 'three']);
    expect((await fx.memory.context('k')).turns.map((t) => t.question)).toEqual(['one', 'three']);
  });

  it('reports a storage failure as a failed run with an error event', async () => {
    await setup();
    await fx.store.close();
    const events: AgentEvent[] = [];
    const outcome = await ask('hello', 'k', undefined, events);
    expect(outcome).toMatchObject({ status: 'failed', code: 'storage' });
    expect(events[0]).toMatchObject({ type: 'error', code: 'storage' });
    expect(JSON.stringify(events)).not.toContain(fx.path);
    expect(agent.runs).toHaveLength(0);
  });

  it('close waits for running and queued questions, then turns new ones away', async () => {
    await setup();
    const first = ask('one');
    const second = ask('two');
    let closed = false;
    const closing = assistant.close().then(() => {
      closed = true;
    });
    expect(await ask('late')).toMatchObject({ status: 'busy' });
    await agent.started(1);
    agent.runs[0]!.answer('1');
    await agent.started(2);
    expect(closed).toBe(false);
    agent.runs[1]!.answer('2');
    await closing;
    expect((await Promise.all([first, second])).map((o) => o.status)).toEqual(['answered', 'answered']);
    expect((await assistant.memory('k')).turns).toBe(2);
  });
});

describe('assistant with a model over HTTP', () => {
  let fx: MemoryFixture;
  let assistant: Assistant;
  afterEach(async () => {
    await assistant.close();
    await fx.close();
  });

  const agentRequests = () => fx.fake.requests.filter((r) => !isSummaryRequest(r));

  it('after a compression, the prompt holds the summary and the kept turns verbatim', async () => {
    fx = await startMemoryFixture({ budget: { MEMORY_MAX_TOKENS: 120, MEMORY_KEEP_TURNS: 2 } });
    assistant = createAssistant({ agent: createPromptAgent(fx.model), memory: fx.memory, limits });
    const say = (text: string) => assistant.ask({ key: 'k', author: 'alice', text }, () => {});
    await say('Please remember that my project is called Atlas.');
    for (let n = 2; n <= 6; n++) await say(`Tell me something about topic number ${n}, in one line.`);
    await assistant.close();
    const summaries = fx.fake.requests.filter(isSummaryRequest);
    expect(summaries.length).toBeGreaterThan(0);
    expect(shownText(summaries[0]!)).toContain('[alice] Please remember that my project is called Atlas.');

    const report = await assistant.memory('k');
    const context = await fx.memory.context('k');
    assistant = createAssistant({ agent: createPromptAgent(fx.model), memory: fx.memory, limits });
    await assistant.ask({ key: 'k', author: 'bob', text: 'What is the project called?' }, () => {});
    const last = agentRequests().at(-1)!;
    const messages = last.body.messages;
    expect(messages[1]).toEqual({
      role: 'system',
      content: `Summary of the earlier conversation:\n${report.summary}`,
    });
    expect(report.summary).toContain('my project is called Atlas');
    // The newest summary call wrote the summary's last part; earlier parts stay as they were sent.
    expect(report.summary?.endsWith(echoSummary(fx.fake.requests.filter(isSummaryRequest).at(-1)!))).toBe(
      true,
    );
    const kept = context.turns.flatMap((t) => [`[${t.author}] ${t.question}`, t.answer]);
    expect(messages.slice(2, -1).map((m) => m.content)).toEqual(kept);
    expect(messages.at(-1)).toEqual({ role: 'user', content: '[bob] What is the project called?' });
  });

  it('over 200 turns the prompt stays bounded and still carries the fact from turn 1', async () => {
    const budget = { MEMORY_MAX_TOKENS: 300, MEMORY_KEEP_TURNS: 2, MEMORY_SUMMARY_MAX_TOKENS: 120 };
    fx = await startMemoryFixture({ budget });
    assistant = createAssistant({ agent: createPromptAgent(fx.model), memory: fx.memory, limits });
    const say = (text: string) => assistant.ask({ key: 'console:local', author: 'alice', text }, () => {});
    await say('Remember: my project is called Atlas.');
    for (let n = 2; n <= 200; n++) {
      const outcome = await say(`Question ${n}: what is ${n} times ${n + 1}? Think about it for a while.`);
      expect(outcome.status).toBe('answered');
      // Each compression finishes before the next question, so the bound below is deterministic.
      await fx.memory.idle();
    }
    const requests = agentRequests();
    expect(requests).toHaveLength(200);
    const tokensOf = (r: (typeof requests)[number]) =>
      r.body.messages.reduce((n, m) => n + countTokens(String(m.content)) + 4, 0);
    // System prompt + summary + at most the budget of turns (compression ran after each answer) + the new message.
    const bound = 20 + (budget.MEMORY_SUMMARY_MAX_TOKENS + 20) + budget.MEMORY_MAX_TOKENS + 40;
    for (const r of requests) expect(tokensOf(r)).toBeLessThanOrEqual(bound);
    expect(shownText(requests.at(-1)!)).toContain('my project is called Atlas');
    expect(shownText(requests.at(-1)!)).not.toContain('Question 100:');
    const report = await assistant.memory('console:local');
    expect(report.summarizedTurns + report.turns).toBe(200);
    expect(report.summarizedTurns).toBeGreaterThan(150);
  });
});
