/**
 * Issue 32: a plan is not an answer; a cut reply is not delivered; a Final Answer followed by a tool call ends
 * where the call begins. Hand-written cases (the held-out replies are never used here).
 */
import { describe, expect, it } from 'vitest';
import { parseReactOutput } from '../../../src/core/agent/react-parser.js';

const TOOLS = ['calculator', 'web_search', 'run_python', 'mindsdb_sql_tool'];
const kind = (text: string) => parseReactOutput(text, TOOLS).kind;

describe('unlabelled prose: a plan or a cut reply gets the reminder, an answer is delivered', () => {
  it.each([
    ['opens with a plan', 'Let me look that up in the docs first.'],
    [
      'ends by handing over to a next step',
      'The table has two date columns. Let me compare them row by row.',
    ],
    [
      'ends with "I can proceed to…"',
      'The sender is the bank and the tone is formal. I can proceed to draft a reply.',
    ],
    ['ends with "I need to…"', 'The first result is about Paris. I need to search for the population next.'],
    ['stops on a bare step marker', 'So the claim is false.\nAction 3'],
    ['stops on a bare marker with a colon', 'Checked the first page.\nThought:'],
  ])('%s', (_name, text) => {
    expect(kind(text)).toBe('invalid');
  });

  it.each([
    ['a plain answer', 'Paris is the capital of France.'],
    ['an answer that invites a follow-up', 'The total is 42. Let me know if you need the breakdown.'],
    ['an answer with Key: value lines', 'Here is the summary:\n- Name: Ada\n- Born: 1815'],
  ])('%s', (_name, text) => {
    expect(kind(text)).toBe('final');
  });
});

describe('a Final Answer followed by an Action', () => {
  it('the first of the two decides, and the answer ends where the Action naming a tool begins', () => {
    const step = parseReactOutput(
      'Thought: done\nFinal Answer: It is 21°C in Paris.\nAction: web_search\nAction Input: Paris weather tomorrow',
      TOOLS,
    );
    expect(step).toMatchObject({ kind: 'final', answer: 'It is 21°C in Paris.' });
  });

  it('an Action first still wins over a later Final Answer', () => {
    const step = parseReactOutput('Action: calculator\nAction Input: 2+2\nFinal Answer: 4', TOOLS);
    expect(step).toMatchObject({ kind: 'action', tool: 'calculator' });
  });

  it('an answer that quotes an Action line naming no tool keeps it', () => {
    const step = parseReactOutput('Final Answer: Write it as\nAction: the tool name', TOOLS);
    expect(step).toMatchObject({ kind: 'final', answer: 'Write it as\nAction: the tool name' });
  });
});

describe('names, format lines and inputs', () => {
  it('reads a markdown-escaped tool name', () => {
    expect(parseReactOutput('Action: mindsdb\\_sql\\_tool\nAction Input: SELECT 1', TOOLS)).toMatchObject({
      kind: 'action',
      tool: 'mindsdb_sql_tool',
    });
  });

  it('takes the tool from the input when the format line was copied as the Action', () => {
    const step = parseReactOutput(
      'Action: the action to take, should be one of [calculator, web_search]\nAction Input: web_search("rust 1.80")',
      TOOLS,
    );
    expect(step).toMatchObject({ kind: 'action', tool: 'web_search', input: 'rust 1.80' });
  });

  it('keeps Key: value lines under Action Input as one input', () => {
    const step = parseReactOutput(
      'Action: web_search\nAction Input: Name: Ada Lovelace\nBorn: 1815\nField: mathematics',
      TOOLS,
    );
    expect(step).toMatchObject({ input: 'Name: Ada Lovelace\nBorn: 1815\nField: mathematics' });
  });

  it('passes code whole to a tool with one string field', () => {
    const code = 'import numpy as np\nx = np.arange(3)\nprint(x.sum())';
    const step = parseReactOutput(`Action: run_python\nAction Input: ${code}`, [
      { name: 'run_python', parameters: { type: 'object', properties: { code: { type: 'string' } } } },
    ]);
    expect(step).toMatchObject({ kind: 'action', tool: 'run_python', input: { code } });
  });
});
