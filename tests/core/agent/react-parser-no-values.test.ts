/**
 * Issue 43, after round 6: an Action that names a tool by its signature gives no values; a bracket call's text
 * keeps its apostrophes and loses its closing bracket; a final answer that only plans the next step is no
 * answer. Generated cases (fast-check); the held-out replies are never used here.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { announcesStep, parseReactOutput } from '../../../src/core/agent/react-parser.js';

const TOOLS = ['search', 'get_historical_events', 'get_weather'];
const tool = fc.constantFrom(...TOOLS);

describe('an Action naming a tool by its signature', () => {
  const params = fc.constantFrom(
    'year, location=None, keyword=None',
    'query',
    'query: str',
    'city: str, unit=None',
    'year: int, limit=10',
    'keyword=None',
  );
  const framing = fc.constantFrom(
    (call: string) => `I should use the tool \`${call}\` to gather information about the current year.`,
    (call: string) => `I will call ${call} to find out more.`,
    (call: string) => `Use \`${call}\` to look this up.`,
    (call: string) => `Let me use the ${call} tool.`,
  );
  const after = fc.constantFrom(
    "Let me know what year and location you'd like me to focus on!",
    '**Waiting for the tool output**',
    'I will wait for the result.',
    '',
  );

  it('with no Action Input, gets the reminder whatever prose follows; with values, is the call', () => {
    fc.assert(
      fc.property(tool, params, framing, after, (name, list, frame, tail) => {
        const action = `Action: ${frame(`${name}(${list})`)}`;
        expect(parseReactOutput(`Thought: I need facts first.\n\n${action}\n\n${tail}\n`, TOOLS).kind).toBe(
          'invalid',
        );
        expect(parseReactOutput(`${action}\nAction Input: {"query": "Eldoria 1850"}`, TOOLS)).toMatchObject({
          kind: 'action',
          tool: name,
          input: { query: 'Eldoria 1850' },
        });
        expect(parseReactOutput(`Action: ${frame(`${name}("Eldoria 1850")`)}`, TOOLS).kind).toBe('action');
      }),
    );
  });
});

describe('a bracket call whose text holds apostrophes', () => {
  const first = fc.constantFrom('Denmark', 'the', 'famous', 'who', 'best');
  const word = fc.constantFrom(
    "Denmark's",
    "couldn't",
    "players'",
    "O'Brien",
    "rock 'n' roll",
    "'90s",
    'region',
    'foods',
    'answer',
    '"quoted" words',
  );
  const text = fc
    .tuple(first, fc.array(word, { minLength: 1, maxLength: 5 }))
    .map(([a, rest]) => [a, ...rest].join(' '))
    .filter((t) => t.includes("'"));
  const open = fc.constantFrom(['[', ']'], ['(', ')']);

  it('is the tool input up to its closing bracket, which is not part of it', () => {
    fc.assert(
      fc.property(text, open, fc.constantFrom('', '.'), (s, [o, c], stop) => {
        const reply = `Thought: I should try a different search.\nAction: search${o}${s}${stop}${c}`;
        expect(parseReactOutput(reply, TOOLS)).toMatchObject({
          kind: 'action',
          tool: 'search',
          input: `${s}${stop}`,
        });
      }),
    );
  });

  it('as a finish, is the answer without the closing bracket', () => {
    fc.assert(
      fc.property(text, (s) => {
        const reply = `Thought: I know it now.\nAction:  finish[${s}.]`;
        expect(parseReactOutput(reply, TOOLS)).toMatchObject({ kind: 'final', answer: `${s}.` });
      }),
    );
  });
});

describe('a final answer that only plans the next step', () => {
  const subject = fc.constantFrom('I need to', 'I should', 'I will', "I'll", 'Let us', 'Let me', 'I have to');
  const verb = fc.constantFrom(
    'search',
    'look up',
    'check',
    'use the search tool to find',
    'search again for',
    'find',
  );
  const object = fc.constantFrom(
    'the company that owns Japan Airlines, not the airline itself',
    'the population of Paris',
    'more information',
    'a different query',
  );
  const englishPlan = fc
    .tuple(fc.constantFrom('', 'Thought: ', 'Now '), subject, verb, object)
    .map(([pre, s, v, o]) => `${pre}${pre === 'Now ' ? s.replace(/^L/, 'l') : s} ${v} ${o}.`);
  const chinesePlan = fc.constantFrom(
    '需要查询杭州今天的天气，因此可以使用“天气工具”来获取相关信息。',
    '我需要搜索周杰伦的老婆是谁。',
    '因此我应该使用搜索工具查找相关信息。',
    '接下来我会查询北京的天气。',
  );
  const plan = fc.oneof(
    englishPlan,
    fc.tuple(englishPlan, englishPlan).map(([a, b]) => `${a} ${b}`),
    chinesePlan,
  );
  const form = fc.constantFrom(
    (p: string) => `Thought: Let me reflect.\nAction: finish[${p}]`,
    (p: string) => `Thought: I know what to do.\nFinal Answer: ${p}`,
    (p: string) => `Action:\n\`\`\`\n${JSON.stringify({ action: 'Final Answer', action_input: p })}\n\`\`\``,
  );

  it('gets the reminder, in any of the answer forms', () => {
    fc.assert(
      fc.property(plan, form, (p, f) => {
        expect(parseReactOutput(f(p), TOOLS).kind).toBe('invalid');
      }),
    );
  });

  it('is never delivered, not even at the last step', () => {
    fc.assert(
      fc.property(plan, (p) => {
        expect(announcesStep(`Final Answer: ${p}`)).toBe(true);
      }),
    );
  });

  const answer = fc.constantFrom(
    'I need to tell you that the store is closed on Sundays.',
    'I need to know which city you mean: Paris, France or Paris, Texas?',
    "I couldn't find the answer to the question.",
    'I should mention that the figure is from 2021.',
    'I will be happy to help with anything else.',
    'We should use renewable energy to cut emissions.',
    '你需要使用天气工具查询。',
    '查询结果显示杭州今天晴，气温25度。',
  );

  it('leaves answers that tell or ask the asker something alone, and plans followed by an answer', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          answer,
          fc.tuple(englishPlan, answer).map(([p, a]) => `${p} ${a}`),
          englishPlan.map((p) => `${p} The answer is 42.`),
        ),
        form,
        (a, f) => {
          expect(parseReactOutput(f(a), TOOLS)).toMatchObject({ kind: 'final', answer: a });
        },
      ),
    );
  });
});
