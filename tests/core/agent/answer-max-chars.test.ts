import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../src/core/agent/events.js';
import { MAX_CHARS_CUT_NOTE } from '../../../src/core/agent/notes.js';
import { startTestCore, type TestCore } from '../../helpers/test-core.js';

const MAX = 500;
const long = 'All work and no play makes Jack a dull boy. '.repeat(100);

describe.each([
  ['tools', (text: string) => text],
  ['react', (text: string) => `Thought: I know.\nFinal Answer: ${text}`],
] as const)('an answer over ANSWER_MAX_CHARS (%s protocol)', (protocol, reply) => {
  let t: TestCore;
  afterEach(() => t.close());

  async function ask(text: string) {
    const events: AgentEvent[] = [];
    const result = await t.core.assistant.ask({ key: 'c', author: 'alice', text }, (e) => events.push(e));
    return { result, events };
  }

  it('is cut there, in what the channel gets and in memory, flagged as cut by the limit', async () => {
    t = await startTestCore({ ANSWER_MAX_CHARS: String(MAX), AGENT_PROTOCOL: protocol });
    t.fake.script({ content: reply(long) }, { content: reply('Sure.') });
    const { result, events } = await ask('write a lot');
    const kept = long.slice(0, MAX);
    expect(result).toMatchObject({ status: 'answered', text: kept, truncated: 'max_chars' });
    expect(events.at(-1)).toMatchObject({ type: 'answer', text: kept, truncated: 'max_chars' });
    const streamed = events.flatMap((e) => (e.type === 'answer_delta' ? [e.text] : [])).join('');
    expect(streamed.length).toBeLessThanOrEqual(MAX);
    expect(kept.startsWith(streamed)).toBe(true);

    await ask('go on');
    const remembered = t.fake.requests[1]!.body.messages.find((m) => m.role === 'assistant');
    expect(remembered?.content).toBe(`${kept}${MAX_CHARS_CUT_NOTE}`);
  });

  it('says the limit cut it even when the model’s length limit stopped it too', async () => {
    t = await startTestCore({ ANSWER_MAX_CHARS: String(MAX), AGENT_PROTOCOL: protocol });
    t.fake.script({ content: reply(long), finishReason: 'length' });
    const { result } = await ask('write a lot');
    expect(result).toMatchObject({ status: 'answered', truncated: 'max_chars' });
  });

  it('leaves an answer within the limit whole and unflagged', async () => {
    t = await startTestCore({ ANSWER_MAX_CHARS: String(MAX), AGENT_PROTOCOL: protocol });
    t.fake.script({ content: reply(long.slice(0, MAX)) });
    const { result } = await ask('write a bit');
    expect(result).toMatchObject({ status: 'answered', text: long.slice(0, MAX).trim() });
    expect('truncated' in result).toBe(false);
  });
});

describe('the cut', () => {
  let t: TestCore;
  afterEach(() => t.close());

  it('never splits a character made of two UTF-16 units', async () => {
    t = await startTestCore({ ANSWER_MAX_CHARS: '101' });
    t.fake.script({ content: '😀'.repeat(100) });
    const result = await t.core.assistant.ask({ key: 'c', author: 'a', text: 'smile' }, () => {});
    expect(result).toMatchObject({ status: 'answered', text: '😀'.repeat(50), truncated: 'max_chars' });
  });
});
