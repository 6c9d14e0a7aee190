/**
 * Issue 43: the parser's rules as properties over generated replies, so they hold for the label dressings,
 * names and inputs no collected reply happened to show.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseReactOutput } from '../../../src/core/agent/react-parser.js';
import { dress, jsonInput, label, phrase, TOOLS, tool } from './react-arbitraries.js';

const parse = (text: string) => parseReactOutput(text, [...TOOLS]);

describe('labels however a model dresses them', () => {
  it('reads a Thought / Action / Action Input reply', () => {
    fc.assert(
      fc.property(dress, dress, dress, tool, jsonInput, (dt, da, di, name, input) => {
        const reply = `${label('Thought', dt)} I should look this up.\n${label('Action', da)} ${name}\n${label('Action Input', di)} ${JSON.stringify(input)}`;
        expect(parse(reply)).toMatchObject({ kind: 'action', tool: name, input });
      }),
    );
  });

  it('reads a Thought / Final Answer reply', () => {
    fc.assert(
      fc.property(dress, dress, phrase, (dt, df, answer) => {
        const reply = `${label('Thought', dt)} I know this now.\n${label('Final Answer', df)} ${answer}.`;
        expect(parse(reply)).toMatchObject({ kind: 'final', answer: `${answer}.` });
      }),
    );
  });
});

/** Keys a form-like input holds, some named like the protocol's labels. */
const key = fc.constantFrom(
  'To',
  'Subject',
  'Body',
  'Name',
  'Action',
  'Tool',
  'Input',
  'Answer',
  'Arguments',
);
const value = fc.constantFrom(
  '+15551234',
  'Send SMS',
  'hello there',
  'Notify the team',
  'Weekly report',
  'urgent',
);

describe('a multi-line Action Input of Key: value lines', () => {
  it('stays one input in a list, whatever its keys are named, up to a real next label', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('- ', '* ', '• '),
        fc.array(fc.tuple(key, value), { minLength: 1, maxLength: 6 }),
        fc.constantFrom('', '\nObservation: sent', '\n\nThought: done'),
        (marker, pairs, tail) => {
          const block = pairs.map(([k, v]) => `${marker}${k}: ${v}`).join('\n');
          const step = parse(`Action: send_sms\nAction Input:\n${block}${tail}`);
          expect(step).toMatchObject({ kind: 'action', tool: 'send_sms', input: block });
        },
      ),
    );
  });

  it('stays one input without list markers while an Action key names no tool', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom('To', 'Subject', 'Body', 'Action'), value), {
          minLength: 2,
          maxLength: 5,
        }),
        (pairs) => {
          const block = pairs.map(([k, v]) => `${k}: ${v}`).join('\n');
          expect(parse(`Action: send_sms\nAction Input: ${block}`)).toMatchObject({ input: block });
        },
      ),
    );
  });

  it('ends where an unmarked Action names a known tool: that is the next step', () => {
    const step = parse(
      'Action: send_sms\nAction Input: To: +15551234\nBody: hi\nAction: web_search\nAction Input: x',
    );
    expect(step).toMatchObject({ tool: 'send_sms', input: 'To: +15551234\nBody: hi' });
  });
});

describe("the format's placeholder as the Action", () => {
  const placeholder = fc
    .tuple(fc.shuffledSubarray([...TOOLS], { minLength: 2 }), fc.constantFrom(0, 1, 2))
    .map(([names, form]) =>
      form === 0
        ? `the action to take, should be one of [${names.join(', ')}]`
        : form === 1
          ? `[${names.join(', ')}]`
          : `one of [${names.join(', ')}]`,
    );
  const call = fc.tuple(tool, phrase, fc.constantFrom(0, 1, 2, 3)).map(([name, q, form]) => ({
    name,
    q,
    text: [`${name}("${q}")`, `${name}: ${q}`, `${name} ${q}`, `${name}[${q}]`][form]!,
  }));

  it('takes the tool named at the start of the Action Input, not the first of the list', () => {
    fc.assert(
      fc.property(placeholder, call, (action, { name, q, text }) => {
        expect(parse(`Thought: go\nAction: ${action}\nAction Input: ${text}`)).toMatchObject({
          kind: 'action',
          tool: name,
          input: q,
        });
      }),
    );
  });

  it('reminds the model when the input names no tool either', () => {
    fc.assert(
      fc.property(placeholder, phrase, (action, q) => {
        expect(parse(`Action: ${action}\nAction Input: ${q}`).kind).toBe('invalid');
      }),
    );
  });
});

describe('Markdown escapes', () => {
  const identifier = fc
    .array(fc.constantFrom('house', 'sales', 'price', 'user', 'id'), { minLength: 2, maxLength: 3 })
    .map((w) => w.join('_'));

  it('are removed from the input when the reply escaped the tool name too', () => {
    fc.assert(
      fc.property(identifier, identifier, (a, b) => {
        const mdEscape = (s: string) => s.replaceAll('_', '\\_');
        const reply = `Action: run\\_python\nAction Input: SELECT ${mdEscape(a)} FROM ${mdEscape(b)} WHERE n \\* 2 > 1`;
        expect(parse(reply)).toMatchObject({ input: `SELECT ${a} FROM ${b} WHERE n * 2 > 1` });
      }),
    );
  });

  it('are the input’s own when nothing else in the reply is escaped', () => {
    const reply = 'Action: run_python\nAction Input: print(re.sub(r"a\\_b", "", s))';
    expect(parse(reply)).toMatchObject({ input: 'print(re.sub(r"a\\_b", "", s))' });
  });
});

describe('JSON inputs with escapes JSON does not allow', () => {
  it("keep the text as the model meant it (\\' is a quote, \\d a backslash and d)", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z]{1,8}$/), (word) => {
        const reply = `Action: run_python\nAction Input: {"code": "print(\\'${word}\\')\\nre.findall(r\\"\\d+\\(\\", s)"}`;
        expect(parse(reply)).toMatchObject({
          input: { code: `print('${word}')\nre.findall(r"\\d+\\(", s)` },
        });
      }),
    );
  });
});

describe('a reply with both an Action and a Final Answer', () => {
  const action = fc.tuple(tool, jsonInput).map(([name, input]) => ({
    name,
    input,
    text: `Action: ${name}\nAction Input: ${JSON.stringify(input)}`,
  }));

  it('runs the Action when it comes first, whatever the model made up after it', () => {
    fc.assert(
      fc.property(action, phrase, fc.boolean(), ({ name, input, text }, answer, observation) => {
        const made = observation ? `\nObservation: ${answer}\nThought: I now know the final answer` : '';
        expect(parse(`Thought: look it up\n${text}${made}\nFinal Answer: ${answer}.`)).toMatchObject({
          kind: 'action',
          tool: name,
          input,
        });
      }),
    );
  });

  it('answers when the Final Answer comes first, up to the Action line naming a tool', () => {
    fc.assert(
      fc.property(action, phrase, ({ text }, answer) => {
        expect(parse(`Thought: I know it\nFinal Answer: ${answer}.\n${text}`)).toMatchObject({
          kind: 'final',
          answer: `${answer}.`,
        });
      }),
    );
  });
});
