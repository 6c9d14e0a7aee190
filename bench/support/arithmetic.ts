import type { RecordedRequest, ScriptStep } from '../../tests/fakes/openai-server.js';

/** The benchmark question: two products to compute with the calculator, then their sum. */
export interface Arithmetic {
  a: number;
  b: number;
  c: number;
  d: number;
}

const QUESTION_RE = /What is \((\d+) \* (\d+)\) \+ \((\d+) \* (\d+)\)\?/;

/** The i-th question: different numbers every run, so a mixed-up answer cannot pass as correct. */
export function arithmeticFor(i: number): Arithmetic {
  return { a: 100 + (i % 900), b: 37 + (i % 61), c: 1000 + ((i * 7) % 9000), d: 3 + (i % 17) };
}

/** The question as a user types it. */
export function questionText(q: Arithmetic): string {
  return `What is (${q.a} * ${q.b}) + (${q.c} * ${q.d})?`;
}

/** The number a correct answer contains. */
export function expectedAnswer(q: Arithmetic): string {
  return String(q.a * q.b + q.c * q.d);
}

/** True when `answer` states the right sum for question `i`. */
export function isCorrect(answer: string | undefined, q: Arithmetic): boolean {
  return typeof answer === 'string' && answer.includes(expectedAnswer(q));
}

type Message = RecordedRequest['body']['messages'][number];

const text = (m: Message): string => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content));
/** A tool result without the `<untrusted …>` block it reaches the model in (see src/core/util/untrusted.ts). */
const unquoted = (result: string): string => result.replace(/<\/?untrusted\b[^>]*>/g, '').trim();

/**
 * The scripted model's policy, computed from the request so any client can drive it: with `tools` in the
 * request it answers with native tool calls, without them in the text ReAct format. First call: calculator
 * on the first product; second: on the second product; third: the final answer, the sum of the two numbers
 * the tool results reported (so a run that lost or garbled a tool result answers wrongly). Any other user
 * message is echoed back as the answer (`Answer to: …`).
 */
export function arithmeticResponder(request: RecordedRequest): ScriptStep {
  const messages = request.body.messages;
  let asked = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role === 'user' && !text(m).startsWith('Observation:')) {
      asked = i;
      break;
    }
  }
  const question = asked >= 0 ? text(messages[asked]!) : '';
  const match = QUESTION_RE.exec(question);
  if (!match) return { content: `Answer to: ${question.replace(/^\[[^\]]*\] /, '')}` };

  const [a, b, c, d] = match.slice(1).map(Number) as [number, number, number, number];
  const results = messages
    .slice(asked + 1)
    .filter((m) => m.role === 'tool' || (m.role === 'user' && text(m).startsWith('Observation:')))
    .map((m) => Number(/=\s*(-?[\d.e+]+)\s*$/.exec(unquoted(text(m)))?.[1]));
  const native = (request.body.tools?.length ?? 0) > 0;

  if (results.length < 2) {
    const expression = results.length === 0 ? `${a} * ${b}` : `${c} * ${d}`;
    if (native) return { content: null, toolCalls: [{ name: 'calculator', arguments: { expression } }] };
    return {
      content: `Thought: I need ${expression}.\nAction: calculator\nAction Input: ${JSON.stringify({ expression })}`,
    };
  }
  const sum = results[0]! + results[1]!;
  const answer = `(${a} * ${b}) + (${c} * ${d}) = ${sum}.`;
  return { content: native ? answer : `Thought: I have both products.\nFinal Answer: ${answer}` };
}
