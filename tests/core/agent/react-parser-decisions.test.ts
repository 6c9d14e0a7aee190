/**
 * Issue 43, round 4: prose that settles which action to take is a plan, and an Action that is only a code span
 * naming no tool is no call. Generated cases (fast-check); the held-out replies are never used here.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseReactOutput } from '../../../src/core/agent/react-parser.js';

const TOOLS = ['search', 'calculator', 'python_repl_ast'];
const word = fc.constantFrom('weather', 'Alexander Graham Bell', 'the 2021 revenue', 'rows of df');
const tool = fc.constantFrom('search', 'calculator');

describe('prose that settles the action to take', () => {
  it('gets the reminder whatever words frame the decision', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('action to take', 'best action to take', 'tool to use', 'action to call'),
        fc.constantFrom('is', 'would be'),
        tool,
        word,
        (noun, verb, name, topic) => {
          const text = `Understood. The ${noun} ${verb} to ${name} for "${topic}". Therefore, the ${noun} ${verb} "${name}".`;
          expect(parseReactOutput(text, TOOLS).kind).toBe('invalid');
        },
      ),
    );
  });

  it('leaves an answer that only mentions an action alone', () => {
    fc.assert(
      fc.property(word, (topic) => {
        const text = `The ${topic} is 42. Taking action early helps.`;
        expect(parseReactOutput(text, TOOLS)).toMatchObject({ kind: 'final' });
      }),
    );
  });
});

describe('an Action that is only a code span', () => {
  const code = fc.constantFrom('print(df.shape)', 'len(df)', 'df.head()', 'os.listdir(".")');

  it('naming no tool and with no input, gets the reminder', () => {
    fc.assert(
      fc.property(code, fc.constantFrom('Thought: I know how.\n', ''), (c, thought) => {
        expect(parseReactOutput(`${thought}Action: \`${c}\``, TOOLS).kind).toBe('invalid');
      }),
    );
  });

  it('naming a tool, is the call', () => {
    fc.assert(
      fc.property(word, (topic) => {
        expect(parseReactOutput(`Action: \`search("${topic}")\``, TOOLS)).toMatchObject({
          kind: 'action',
          tool: 'search',
        });
      }),
    );
  });
});
