import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../src/core/agent/events.js';
import { startTestCore, type TestCore } from '../../helpers/test-core.js';

/** Reasoning models: their thinking becomes Thought steps, never the answer or memory. */
describe('reasoning models', () => {
  let test: TestCore | undefined;
  afterEach(async () => {
    await test?.close();
    test = undefined;
  });

  async function ask(text: string) {
    const events: AgentEvent[] = [];
    const outcome = await test!.core.assistant.ask({ key: 'k', author: 'alice', text }, (e) =>
      events.push(e),
    );
    const thoughts = events.flatMap((e) => (e.type === 'thought' ? [e.text] : []));
    const streamed = events.flatMap((e) => (e.type === 'answer_delta' ? [e.text] : [])).join('');
    return { outcome, thoughts, streamed, events };
  }

  async function remembered(): Promise<string> {
    const history = await test!.core.assistant.history('k');
    return history.turns.map((t) => t.answer).join('\n');
  }

  for (const stream of ['true', 'false']) {
    it(`shows reasoning_content as a Thought step, not in the answer or memory (LLM_STREAM=${stream})`, async () => {
      test = await startTestCore({ LLM_STREAM: stream }, { chunkSize: 3 });
      test.fake.script({ reasoning: 'The user greets me; greet back.', content: 'Hello Alice!' });
      const { outcome, thoughts, streamed, events } = await ask('hi');
      expect(outcome).toMatchObject({ status: 'answered', text: 'Hello Alice!' });
      expect(thoughts).toEqual(['The user greets me; greet back.']);
      expect(streamed).toBe('Hello Alice!');
      // The step comes before the answer it led to.
      expect(events.findIndex((e) => e.type === 'thought')).toBeLessThan(
        events.findIndex((e) => e.type === 'answer_delta'),
      );
      expect(await remembered()).toBe('Hello Alice!');
      expect(JSON.stringify(test.fake.requests.at(-1)?.body.messages)).not.toContain('greet back');
    });

    it(`takes <think> blocks split across chunks out of the answer (tools protocol, LLM_STREAM=${stream})`, async () => {
      test = await startTestCore({ LLM_STREAM: stream }, { chunkSize: 3 });
      test.fake.script({ content: '<think>\nTwo and two make four.\n</think>\n\nIt is 4.' });
      const { outcome, thoughts, streamed } = await ask('2+2?');
      expect(outcome).toMatchObject({ status: 'answered', text: 'It is 4.' });
      expect(thoughts).toEqual(['Two and two make four.']);
      expect(streamed).not.toContain('think');
      expect(await remembered()).toBe('It is 4.');
    });
  }

  it('keeps reasoning out of the react protocol too, before a tool call and before the answer', async () => {
    test = await startTestCore({ AGENT_PROTOCOL: 'react' }, { chunkSize: 4 });
    test.fake.script(
      {
        content:
          '<think>I should compute this.</think>\nThought: use the calculator\nAction: calculator\nAction Input: {"expression": "6*7"}',
      },
      { content: '<THINK>The tool said 42.</THINK>Thought: done\nFinal Answer: 42' },
    );
    const { outcome, thoughts } = await ask('6*7?');
    expect(outcome).toMatchObject({ status: 'answered', text: '42' });
    expect(thoughts).toEqual(['I should compute this.', 'use the calculator', 'The tool said 42.', 'done']);
    expect(await remembered()).toBe('42');
    // What goes back to the model is the step, not the reasoning.
    expect(JSON.stringify(test.fake.requests[1]?.body.messages)).not.toContain('I should compute');
  });

  it('treats an unclosed <think> at the end as reasoning, leaving no answer to store', async () => {
    test = await startTestCore({}, { chunkSize: 5 });
    test.fake.script({ content: '<think>Still pondering the question' }, { content: 'Sorry: 42.' });
    const { thoughts, outcome } = await ask('meaning of life?');
    expect(thoughts[0]).toBe('Still pondering the question');
    // An empty reply is asked again; the second one answers.
    expect(outcome).toMatchObject({ status: 'answered', text: 'Sorry: 42.' });
    expect(await remembered()).toBe('Sorry: 42.');
  });

  it('keeps a <think> that the answer only mentions', async () => {
    test = await startTestCore();
    test.fake.script({ content: 'Models wrap reasoning in <think> tags.' });
    const { outcome, thoughts } = await ask('how do reasoning models think?');
    expect(outcome).toMatchObject({ text: 'Models wrap reasoning in <think> tags.' });
    expect(thoughts).toEqual([]);
  });

  it('hides reasoning entirely with SHOW_REASONING=false', async () => {
    test = await startTestCore({ SHOW_REASONING: 'false' });
    test.fake.script({ reasoning: 'secret musings', content: '<think>more musings</think>Done.' });
    const { outcome, events } = await ask('go');
    expect(outcome).toMatchObject({ status: 'answered', text: 'Done.' });
    expect(JSON.stringify(events)).not.toContain('musings');
    expect(await remembered()).toBe('Done.');
  });
});
