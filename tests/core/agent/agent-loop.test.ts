import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AgentSettings } from '../../../src/core/agent/agent-deps.js';
import { createAgent } from '../../../src/core/agent/create-agent.js';
import type { AgentEvent } from '../../../src/core/agent/events.js';
import { OBSERVATION_STOP } from '../../../src/core/agent/react-protocol.js';
import { StorageError } from '../../../src/core/errors.js';
import { createOpenAIChatModel } from '../../../src/core/llm/openai-chat-model.js';
import { loadPrompts } from '../../../src/core/prompts.js';
import { defineTool, type Tool, ToolInputError } from '../../../src/core/tools/define-tool.js';
import { ServiceError } from '../../../src/core/tools/http.js';
import { quote } from '../../../src/core/util/untrusted.js';
import { type FakeOpenAI, type ScriptStep, startFakeOpenAI } from '../../fakes/openai-server.js';
import { createGate, type Gate } from '../../helpers/gate.js';
import { waitUntil } from '../../helpers/wait-until.js';

const prompts = loadPrompts('prompts');

const addTool = defineTool({
  name: 'add',
  description: 'Adds two numbers.',
  input: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => String(a + b),
});
const lookupTool = defineTool({
  name: 'lookup',
  description: 'Looks up a word.',
  input: z.object({ word: z.string() }),
  execute: async ({ word }) => `definition of ${word}`,
});
const boomTool = defineTool({
  name: 'boom',
  description: 'Always fails.',
  input: z.object({}),
  execute: () => {
    throw new Error('the boom service is down');
  },
});
const stuckTool = defineTool({
  name: 'stuck',
  description: 'Never returns and ignores its signal.',
  input: z.object({}),
  execute: () => new Promise<string>(() => {}),
});
const tools: Tool[] = [addTool, lookupTool, boomTool, stuckTool];
// Tools whose failures are ThinkthreadErrors: they must stay observations, never end the run.
const refuseTool = defineTool({
  name: 'refuse',
  description: 'Refuses its input.',
  input: z.object({}),
  execute: () => {
    throw new ToolInputError('That input is not allowed.');
  },
});
const offlineTool = defineTool({
  name: 'offline',
  description: 'Its service is down.',
  input: z.object({}),
  execute: () => {
    throw new ServiceError('Could not reach Example (ECONNREFUSED).');
  },
});

type Call = { name: string; args: Record<string, unknown> };

/** How each protocol's model says "call these tools" and "here is the answer". */
const dialects = {
  tools: {
    act: (thought: string, ...calls: Call[]): ScriptStep => ({
      content: thought,
      toolCalls: calls.map((c) => ({ name: c.name, arguments: c.args })),
    }),
    answer: (text: string): ScriptStep => ({ content: text }),
  },
  react: {
    act: (thought: string, ...calls: Call[]): ScriptStep => ({
      content: `Thought: ${thought}\nAction: ${calls[0]!.name}\nAction Input: ${JSON.stringify(calls[0]!.args)}`,
    }),
    answer: (text: string): ScriptStep => ({ content: `Thought: I know the answer.\nFinal Answer: ${text}` }),
  },
} as const;

const baseSettings: AgentSettings = {
  AGENT_PROTOCOL: 'tools',
  AGENT_MAX_STEPS: 8,
  TOOL_TIMEOUT_MS: 2000,
  TOOL_CONCURRENCY: 4,
  RUN_TIMEOUT_MS: 10_000,
  ANSWER_MAX_CHARS: 40_000,
};

describe.each(['tools', 'react'] as const)('agent loop (%s protocol)', (protocol) => {
  const say = dialects[protocol];
  let fake: FakeOpenAI;

  beforeEach(async () => {
    fake = await startFakeOpenAI();
  });
  afterEach(async () => {
    await fake.close();
  });

  function agentWith(settings: Partial<AgentSettings> = {}, stream = true, extraTools: Tool[] = []) {
    const model = createOpenAIChatModel({
      baseURL: fake.url,
      apiKey: 'sk-test-key',
      model: 'test-model',
      maxRetries: 2,
      timeoutMs: 5000,
      stream,
    });
    return createAgent({
      model,
      tools: [...tools, ...extraTools],
      prompts,
      settings: { ...baseSettings, ...settings, AGENT_PROTOCOL: protocol },
    });
  }

  async function ask(agent: ReturnType<typeof agentWith>, message: string, signal?: AbortSignal) {
    const events: AgentEvent[] = [];
    const result = await agent.run(
      { message, author: 'alice', context: { turns: [] }, ...(signal ? { signal } : {}) },
      (e) => events.push(e),
    );
    return { result, events, types: events.map((e) => e.type).filter((t) => t !== 'answer_delta') };
  }

  it('calls one tool, feeds the observation back and answers', async () => {
    fake.script(
      say.act('I need to add.', { name: 'add', args: { a: 2, b: 3 } }),
      say.answer('The sum is 5.'),
    );
    const { result, events, types } = await ask(agentWith(), 'what is 2+3?');

    expect(result).toMatchObject({ status: 'answered', text: 'The sum is 5.', steps: 2 });
    // The text protocol's final reply carries a Thought too.
    const finalThought = protocol === 'react' ? ['thought'] : [];
    expect(types).toEqual(['usage', 'thought', 'action', 'observation', 'usage', ...finalThought, 'answer']);
    // Each model call reports what it spent; together they make the run's total.
    const calls = events.filter((e) => e.type === 'usage');
    const answer = events.find((e) => e.type === 'answer');
    expect(calls.reduce((n, e) => n + (e.type === 'usage' ? e.usage.totalTokens : 0), 0)).toBe(
      answer?.type === 'answer' ? answer.usage.totalTokens : -1,
    );
    expect(events.find((e) => e.type === 'thought')).toMatchObject({ text: 'I need to add.' });
    expect(events.find((e) => e.type === 'action')).toMatchObject({ tool: 'add', input: { a: 2, b: 3 } });
    expect(events.find((e) => e.type === 'observation')).toMatchObject({ text: '5', ok: true });

    const second = fake.requests[1]!.body;
    if (protocol === 'tools') {
      expect(fake.requests[0]!.body.tools?.map((t) => t.function.name)).toEqual([
        'add',
        'lookup',
        'boom',
        'stuck',
      ]);
      const assistant = second.messages.at(-2)!;
      const toolMessage = second.messages.at(-1)!;
      expect(assistant.tool_calls).toHaveLength(1);
      // The tool's result is quoted data, naming the tool.
      expect(toolMessage).toMatchObject({ role: 'tool', content: quote('tool', '5', { tool: 'add' }) });
      expect(toolMessage.tool_call_id).toBe((assistant.tool_calls![0] as { id: string }).id);
    } else {
      expect(fake.requests[0]!.body.stop).toEqual([OBSERVATION_STOP]);
      expect(fake.requests[0]!.body.tools).toBeUndefined();
      expect(second.messages.at(-1)).toMatchObject({
        role: 'user',
        content: `Observation: ${quote('tool', '5', { tool: 'add' })}`,
      });
    }
  });

  it('streams the answer: the deltas add up to the final text', async () => {
    const long = 'Here is a long answer. '.repeat(20).trim();
    fake.script(say.answer(long));
    const { result, events } = await ask(agentWith(), 'tell me');
    const deltas = events.filter((e) => e.type === 'answer_delta').map((e) => (e as { text: string }).text);
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('').trim()).toBe(long);
    expect(result).toMatchObject({ status: 'answered', text: long });
    expect(events.some((e) => e.type === 'answer_reset')).toBe(false);
  });

  it('works without streaming too', async () => {
    fake.script(say.act('Adding.', { name: 'add', args: { a: 1, b: 1 } }), say.answer('2'));
    const { result } = await ask(agentWith({}, false), '1+1?');
    expect(result).toMatchObject({ status: 'answered', text: '2' });
    expect(fake.requests.every((r) => r.body.stream !== true)).toBe(true);
  });

  it('takes several steps in a row', async () => {
    fake.script(
      say.act('First add.', { name: 'add', args: { a: 1, b: 2 } }),
      say.act('Now add again.', { name: 'add', args: { a: 3, b: 4 } }),
      say.act('Look it up.', { name: 'lookup', args: { word: 'seven' } }),
      say.answer('Done: 3, 7 and a definition.'),
    );
    const { result, events } = await ask(agentWith(), 'chain');
    expect(result).toMatchObject({ status: 'answered', steps: 4 });
    expect(events.filter((e) => e.type === 'observation').map((e) => (e as { text: string }).text)).toEqual([
      '3',
      '7',
      'definition of seven',
    ]);
  });

  it('reports an unknown tool to the model, which recovers', async () => {
    fake.script(
      say.act('Try this.', { name: 'teleport', args: { to: 'mars' } }),
      say.answer('I cannot teleport.'),
    );
    const { result, events } = await ask(agentWith(), 'go to mars');
    const observation = events.find((e) => e.type === 'observation') as { text: string; ok: boolean };
    expect(observation.ok).toBe(false);
    expect(observation.text).toContain('unknown tool "teleport"');
    expect(observation.text).toContain('add, lookup');
    expect(JSON.stringify(fake.requests[1]!.body.messages)).toContain('unknown tool');
    expect(result).toMatchObject({ status: 'answered', text: 'I cannot teleport.' });
  });

  it('turns invalid tool arguments into an observation', async () => {
    fake.script(say.act('Add.', { name: 'add', args: { a: 'two', b: 3 } }), say.answer('Sorry.'));
    const { events } = await ask(agentWith(), 'x');
    const observation = events.find((e) => e.type === 'observation') as { text: string; ok: boolean };
    expect(observation.ok).toBe(false);
    expect(observation.text).toMatch(/invalid input for add/);
    expect(observation.text).toMatch(/a/);
  });

  it('turns a throwing tool into an observation and keeps going', async () => {
    fake.script(say.act('Try boom.', { name: 'boom', args: {} }), say.answer('Boom is down.'));
    const { result, events } = await ask(agentWith(), 'boom');
    expect(events.find((e) => e.type === 'observation')).toMatchObject({
      ok: false,
      text: 'Error: boom failed: the boom service is down',
    });
    expect(result.status).toBe('answered');
  });

  it('turns a tool input error and a service error into observations and keeps going', async () => {
    fake.script(
      say.act('Try refuse.', { name: 'refuse', args: {} }),
      say.act('Try offline.', { name: 'offline', args: {} }),
      say.answer('Both failed.'),
    );
    const { result, events } = await ask(agentWith({}, true, [refuseTool, offlineTool]), 'fail twice');
    expect(events.filter((e) => e.type === 'observation')).toMatchObject([
      { ok: false, text: 'Error: That input is not allowed.' },
      { ok: false, text: 'Error: offline failed: Could not reach Example (ECONNREFUSED).' },
    ]);
    expect(result).toMatchObject({ status: 'answered', text: 'Both failed.' });
  });

  it('times out a tool that never returns', async () => {
    fake.script(say.act('Wait for it.', { name: 'stuck', args: {} }), say.answer('It got stuck.'));
    const { result, events } = await ask(agentWith({ TOOL_TIMEOUT_MS: 100 }), 'stuck');
    expect(events.find((e) => e.type === 'observation')).toMatchObject({
      ok: false,
      text: 'Error: stuck timed out after 100 ms.',
    });
    expect(result).toMatchObject({ status: 'answered', text: 'It got stuck.' });
  });

  it('still answers when the step limit is reached, asking the model to answer without tools', async () => {
    fake.script(
      say.act('Step one.', { name: 'add', args: { a: 1, b: 1 } }),
      say.act('Step two.', { name: 'add', args: { a: 2, b: 2 } }),
      say.answer('Best effort: 2 and 4.'),
    );
    const { result } = await ask(agentWith({ AGENT_MAX_STEPS: 3 }), 'loop');
    expect(result).toMatchObject({ status: 'answered', text: 'Best effort: 2 and 4.', steps: 3 });
    const last = fake.requests[2]!.body;
    expect(JSON.stringify(last.messages.at(-1))).toMatch(/limit/);
    if (protocol === 'tools') expect(last.tool_choice).toBe('none');
  });

  it('answers even if the model insists on a tool at the last step', async () => {
    fake.script(
      say.act('Step one.', { name: 'add', args: { a: 1, b: 1 } }),
      say.act('Again.', { name: 'add', args: { a: 2, b: 2 } }),
    );
    const { result } = await ask(agentWith({ AGENT_MAX_STEPS: 2 }), 'loop');
    expect(result.status).toBe('answered');
    expect((result as { text: string }).text.length).toBeGreaterThan(0);
  });

  it('retries a 429 (honouring retry-after) and succeeds', async () => {
    fake.script({ status: 429, headers: { 'retry-after': '0' } }, say.answer('Fine now.'));
    const { result } = await ask(agentWith(), 'hi');
    expect(result).toMatchObject({ status: 'answered', text: 'Fine now.' });
    expect(fake.requests).toHaveLength(2);
  });

  it('gives a clear error when the model keeps failing with 500', async () => {
    fake.script(...Array.from({ length: 5 }, () => ({ status: 500, headers: { 'retry-after-ms': '1' } })));
    const { result, events } = await ask(agentWith(), 'hi');
    expect(result).toMatchObject({ status: 'failed', code: 'model_unavailable' });
    const error = events.at(-1) as { type: string; message: string };
    expect(error.type).toBe('error');
    expect(error.message).toMatch(/model server failed \(HTTP 500\)/);
    expect(error.message).not.toContain('sk-test-key');
    expect(fake.requests).toHaveLength(3); // the first try and two retries
  });

  it('gives a clear error when the server answers garbage instead of a completion', async () => {
    fake.script({ raw: '<html>502 Bad Gateway</html>' });
    const { result, events } = await ask(agentWith(), 'hi');
    expect(result).toMatchObject({ status: 'failed' });
    expect((events.at(-1) as { message: string }).message).toMatch(/malformed response/);
    expect(fake.requests).toHaveLength(1);
  });

  it('reminds the model of the format once, then gives up with a clear message', async () => {
    const garbage: ScriptStep = protocol === 'tools' ? { content: '' } : { content: 'lorem ipsum dolor' };
    fake.script(garbage, garbage);
    const { result, events } = await ask(agentWith(), 'hi');
    expect(result).toMatchObject({ status: 'failed', code: 'invalid_output' });
    expect(events.at(-1)).toMatchObject({ type: 'error' });
    expect(fake.requests).toHaveLength(2);
    const reminder = fake.requests[1]!.body.messages.at(-1)!;
    expect(reminder.role).toBe('user');
    expect(String(reminder.content)).toMatch(protocol === 'tools' ? /empty/ : /Final Answer/);
  });

  it('recovers when the reminder works', async () => {
    const garbage: ScriptStep = protocol === 'tools' ? { content: '' } : { content: 'lorem ipsum dolor' };
    fake.script(garbage, say.answer('Proper answer.'));
    const { result } = await ask(agentWith(), 'hi');
    expect(result).toMatchObject({ status: 'answered', text: 'Proper answer.' });
  });

  it('cancels mid-run: the model call is aborted and nothing more happens', async () => {
    fake.script(say.act('Add first.', { name: 'add', args: { a: 1, b: 1 } }), { hang: true });
    const controller = new AbortController();
    const agent = agentWith();
    const pending = ask(agent, 'hi', controller.signal);
    await fake.waitForRequests(2);
    controller.abort();
    const { result, events } = await pending;
    expect(result).toEqual({ status: 'cancelled' });
    expect(events.some((e) => e.type === 'answer')).toBe(false);
    expect(events.at(-1)).toMatchObject({ type: 'error', code: 'cancelled' });
  });

  it('stopped for a reason the asker must hear (its place in a shared line lost), says that, not "cancelled"', async () => {
    fake.script({ hang: true });
    const controller = new AbortController();
    const pending = ask(agentWith(), 'hi', controller.signal);
    await fake.waitForRequests(1);
    controller.abort(new StorageError('The connection to the database was lost while answering.'));
    const { result, events } = await pending;
    expect(result).toEqual({
      status: 'failed',
      code: 'storage',
      message: 'The connection to the database was lost while answering.',
    });
    expect(events.at(-1)).toMatchObject({ type: 'error', code: 'storage' });
  });

  it('stops a run that exceeds RUN_TIMEOUT_MS with a clear message', async () => {
    fake.script({ hang: true });
    const { result } = await ask(agentWith({ RUN_TIMEOUT_MS: 200 }), 'hi');
    expect(result).toMatchObject({ status: 'failed', code: 'timeout' });
  });

  it('refuses empty and huge messages without calling the model', async () => {
    const agent = agentWith();
    expect((await ask(agent, '   ')).result).toMatchObject({ status: 'failed', code: 'invalid_input' });
    expect((await ask(agent, 'x'.repeat(100_000))).result).toMatchObject({
      status: 'failed',
      code: 'invalid_input',
      message: expect.stringMatching(/too long/),
    });
    expect(fake.requests).toHaveLength(0);
  });

  it('shows the model the summary, the earlier turns with their speakers, then the new message', async () => {
    fake.script(say.answer('Atlas.'));
    const agent = agentWith();
    await agent.run({
      message: 'what is my project called?',
      author: 'bob',
      context: {
        summary: 'Alice works on a project called Atlas.',
        turns: [{ author: 'alice', question: 'hello', answer: 'Hi Alice!' }],
      },
    });
    const messages = fake.requests[0]!.body.messages;
    // The summary and the earlier turns retell what people said: quoted history, never instructions.
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'user', 'assistant', 'system', 'user']);
    expect(messages[1]!.content).toBe(
      `Summary of the earlier conversation:\n${quote('history', 'Alice works on a project called Atlas.')}`,
    );
    expect(messages[2]!.content).toBe(quote('history', 'hello', { author: 'alice' }));
    expect(messages[4]!.content).toMatch(/^Current time: /);
    expect(messages[5]!.content).toBe('[bob] what is my project called?');
  });

  it('tells the model the time now in DEFAULT_TIMEZONE, after the history, so "tomorrow at 9" can be worked out', async () => {
    fake.script(say.answer('Noted.'), say.answer('Noted again.'));
    const clock = { at: new Date('2026-03-29T00:30:00Z') };
    const agent = createAgent({
      model: createOpenAIChatModel({
        baseURL: fake.url,
        apiKey: 'sk-test-key',
        model: 'test-model',
        maxRetries: 0,
        timeoutMs: 5000,
        stream: true,
      }),
      tools,
      prompts,
      settings: { ...baseSettings, AGENT_PROTOCOL: protocol, DEFAULT_TIMEZONE: 'Europe/Berlin' },
      now: () => clock.at,
    });
    const timeLine = () => fake.requests.at(-1)!.body.messages.at(-2)!.content;
    await agent.run({ message: 'remind me tomorrow at 9', author: 'ana', context: { turns: [] } });
    expect(timeLine()).toBe('Current time: Sunday, 29 March 2026, 01:30 (Europe/Berlin, GMT+01:00).');
    // An hour later the clocks have gone forward: the line says so, the system prompt is unchanged.
    clock.at = new Date('2026-03-29T01:30:00Z');
    await agent.run({ message: 'and now?', author: 'ana', context: { turns: [] } });
    expect(timeLine()).toBe('Current time: Sunday, 29 March 2026, 03:30 (Europe/Berlin, GMT+02:00).');
    expect(fake.requests[1]!.body.messages[0]).toEqual(fake.requests[0]!.body.messages[0]);
  });
});

describe('agent loop (tools protocol only)', () => {
  let fake: FakeOpenAI;
  beforeEach(async () => {
    fake = await startFakeOpenAI();
  });
  afterEach(async () => {
    await fake.close();
  });

  const agent = () =>
    createAgent({
      model: createOpenAIChatModel({
        baseURL: fake.url,
        model: 'm',
        maxRetries: 0,
        timeoutMs: 5000,
        stream: true,
      }),
      tools,
      prompts,
      settings: baseSettings,
    });

  it('overlaps parallel calls up to TOOL_CONCURRENCY, never more, and keeps observations in call order', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const started: number[] = [];
    const gates = new Map<number, Gate>();
    const work = defineTool({
      name: 'work',
      description: 'Works until the test releases it.',
      input: z.object({ n: z.number() }),
      execute: async ({ n }) => {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        started.push(n);
        const gate = createGate();
        gates.set(n, gate);
        await gate.promise;
        inFlight--;
        return `done ${n}`;
      },
    });
    const calls = [0, 1, 2, 3, 4];
    fake.script(
      { content: '', toolCalls: calls.map((n) => ({ name: 'work', arguments: { n } })) },
      { content: 'All five.' },
    );
    const concurrency = 2;
    const gated = createAgent({
      model: createOpenAIChatModel({
        baseURL: fake.url,
        model: 'm',
        maxRetries: 0,
        timeoutMs: 5000,
        stream: true,
      }),
      tools: [work],
      prompts,
      settings: { ...baseSettings, TOOL_CONCURRENCY: concurrency },
    });
    const events: AgentEvent[] = [];
    const run = gated.run({ message: 'five things', author: 'a', context: { turns: [] } }, (e) =>
      events.push(e),
    );

    // Each round: exactly `concurrency` calls (or all that are left) are running; release the newest one,
    // so the calls finish out of order (call 0 last).
    const released = new Set<number>();
    for (let round = 0; round < calls.length; round++) {
      const expected = Math.min(concurrency, calls.length - round);
      await waitUntil(() => inFlight === expected && started.length === round + expected, {
        what: () => `${expected} calls in flight after ${round} released (started: ${started.join(', ')})`,
      });
      const newest = started.filter((n) => !released.has(n)).at(-1)!;
      released.add(newest);
      gates.get(newest)!.open();
    }
    expect(await run).toMatchObject({ status: 'answered', text: 'All five.' });

    expect(maxInFlight).toBe(concurrency);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect([...released]).toEqual([1, 2, 3, 4, 0]);
    expect(events.find((e) => e.type === 'thought')).toMatchObject({ text: 'Calling work.' });
    const inCallOrder = calls.map((n) => `done ${n}`);
    expect(events.filter((e) => e.type === 'observation').map((e) => (e as { text: string }).text)).toEqual(
      inCallOrder,
    );
    const toolMessages = fake.requests[1]!.body.messages.filter((m) => m.role === 'tool');
    expect(toolMessages.map((m) => m.content)).toEqual(
      inCallOrder.map((text) => quote('tool', text, { tool: 'work' })),
    );
  });

  it('holds back the one sentence before a tool call: it never shows as the answer', async () => {
    fake.script(
      { content: 'Let me add these up.', toolCalls: [{ name: 'add', arguments: { a: 1, b: 1 } }] },
      { content: '2' },
    );
    const events: AgentEvent[] = [];
    await agent().run({ message: 'q', author: 'a', context: { turns: [] } }, (e) => events.push(e));
    const shown = events.filter((e) => e.type === 'answer_delta').map((e) => (e as { text: string }).text);
    expect(shown.join('')).toBe('2');
    expect(events.some((e) => e.type === 'answer_reset')).toBe(false);
    expect(events.find((e) => e.type === 'thought')).toMatchObject({ text: 'Let me add these up.' });
  });

  it('streams an answer from its second sentence on, long before 160 characters', async () => {
    const answer =
      'Sure. The sum is 2, since one and one make two; nothing else is needed here at all, truly.';
    fake.script({ content: answer });
    const events: AgentEvent[] = [];
    await agent().run({ message: 'q', author: 'a', context: { turns: [] } }, (e) => events.push(e));
    const first = events.find((e) => e.type === 'answer_delta') as { text: string } | undefined;
    // Streamed 8 characters a chunk: the first delta comes once "Sure. T" has arrived, not at the end.
    expect(first?.text.length).toBeLessThan(20);
    expect(
      events
        .filter((e) => e.type === 'answer_delta')
        .map((e) => (e as { text: string }).text)
        .join(''),
    ).toBe(answer);
  });

  it('retracts streamed text that turns out to be a long thought before a tool call', async () => {
    const thought = 'Let me think about this carefully. '.repeat(8);
    fake.script(
      { content: thought, toolCalls: [{ name: 'add', arguments: { a: 1, b: 1 } }] },
      { content: '2' },
    );
    const events: AgentEvent[] = [];
    await agent().run({ message: 'q', author: 'a', context: { turns: [] } }, (e) => events.push(e));
    const types = events.map((e) => e.type);
    expect(types.indexOf('answer_reset')).toBeGreaterThan(types.indexOf('answer_delta'));
    expect(types.indexOf('answer_reset')).toBeLessThan(types.indexOf('thought'));
    expect(events.at(-1)).toMatchObject({ type: 'answer', text: '2' });
  });

  it('reports malformed JSON arguments to the model as an observation', async () => {
    fake.script(
      { content: '', toolCalls: [{ name: 'add', arguments: '{"a": 1, "b":' }] },
      { content: 'Oops.' },
    );
    const events: AgentEvent[] = [];
    await agent().run({ message: 'q', author: 'a', context: { turns: [] } }, (e) => events.push(e));
    expect(events.find((e) => e.type === 'observation')).toMatchObject({ ok: false });
    expect((events.find((e) => e.type === 'observation') as { text: string }).text).toMatch(/not valid JSON/);
  });

  it('runs at most 8 tool calls from one reply; the rest are told to the model, not run', async () => {
    fake.script(
      {
        content: '',
        toolCalls: Array.from({ length: 10 }, (_, i) => ({ name: 'add', arguments: { a: i, b: 0 } })),
      },
      { content: 'Done.' },
    );
    const events: AgentEvent[] = [];
    await agent().run({ message: 'many', author: 'a', context: { turns: [] } }, (e) => events.push(e));
    const observations = events.filter((e) => e.type === 'observation') as { ok: boolean; text: string }[];
    expect(observations.filter((o) => o.ok).map((o) => o.text)).toEqual([
      '0',
      '1',
      '2',
      '3',
      '4',
      '5',
      '6',
      '7',
    ]);
    expect(observations.slice(8).every((o) => !o.ok && /at most 8 tool calls/.test(o.text))).toBe(true);
    expect(fake.requests[1]!.body.messages.filter((m) => m.role === 'tool')).toHaveLength(10);
  });

  it('gives a clear error when the stream stalls mid-answer for longer than LLM_TIMEOUT_MS', async () => {
    fake.script({ content: 'This answer starts, then the server goes quiet.', stallMs: 3000 });
    const stalling = createAgent({
      model: createOpenAIChatModel({
        baseURL: fake.url,
        model: 'm',
        maxRetries: 0,
        timeoutMs: 200,
        stream: true,
      }),
      tools,
      prompts,
      settings: baseSettings,
    });
    const result = await stalling.run({ message: 'q', author: 'a', context: { turns: [] } });
    expect(result).toMatchObject({ status: 'failed', code: 'model_unavailable' });
    expect((result as { message: string }).message).toMatch(/stopped sending/);
  });
});
