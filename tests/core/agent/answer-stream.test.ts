import { describe, expect, it } from 'vitest';
import { createAnswerStream } from '../../../src/core/agent/answer-stream.js';
import type { AgentEvent } from '../../../src/core/agent/events.js';

describe('the answer stream', () => {
  it('reads a long reply with no answer start in it a bounded number of times over (linear, not quadratic)', () => {
    let read = 0;
    const stream = createAnswerStream(
      () => {},
      (text) => {
        read += text.length;
        return -1;
      },
    );
    const total = 1_000_000;
    for (let i = 0; i < total; i += 16) stream.push('x'.repeat(16));
    expect(read).toBeLessThan(10 * total);
  });

  it('still streams an answer whose start shows up late in a long reply, and all of it by the end', () => {
    const events: AgentEvent[] = [];
    const label = 'Final Answer: ';
    const stream = createAnswerStream(
      (e) => events.push(e),
      (text) => {
        const at = text.indexOf(label);
        return at < 0 ? -1 : at + label.length;
      },
    );
    const thought = 'hmm '.repeat(5000);
    const reply = `${thought}${label}${'yes '.repeat(5000)}`;
    for (let i = 0; i < reply.length; i += 7) stream.push(reply.slice(i, i + 7));
    const answer = reply.slice(thought.length + label.length);
    stream.finish(answer);
    const streamed = events.map((e) => (e.type === 'answer_delta' ? e.text : '')).join('');
    expect(streamed).toBe(answer);
  });
});
