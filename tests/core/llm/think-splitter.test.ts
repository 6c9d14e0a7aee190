import { describe, expect, it } from 'vitest';
import { createThinkSplitter, splitThinking } from '../../../src/core/llm/think-splitter.js';

function splitInPieces(content: string, size: number) {
  let reply = '';
  let reasoning = '';
  const splitter = createThinkSplitter(
    (t) => {
      reply += t;
    },
    (t) => {
      reasoning += t;
    },
  );
  for (let i = 0; i < content.length; i += size) splitter.push(content.slice(i, i + size));
  splitter.end();
  return { reply, reasoning };
}

describe('think splitter', () => {
  it('finds the tags however the chunks cut them', () => {
    const content = '  <thinking>a < b, so </thin the answer</thinking>\nB wins.';
    for (const size of [1, 2, 3, 7, 100]) {
      expect(splitInPieces(content, size)).toEqual({
        reasoning: 'a < b, so </thin the answer',
        reply: '\nB wins.',
      });
    }
  });

  it('takes everything before a lone </think> as reasoning (templates that open the block themselves)', () => {
    expect(splitThinking('I must be brief.</think>Brief.')).toEqual({
      reasoning: 'I must be brief.',
      reply: 'Brief.',
    });
  });

  it('leaves replies without reasoning untouched', () => {
    expect(splitThinking('Just <this>.')).toEqual({ reasoning: '', reply: 'Just <this>.' });
    expect(splitThinking('<t')).toEqual({ reasoning: '', reply: '<t' });
  });
});
