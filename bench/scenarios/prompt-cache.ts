import type { RecordedRequest, ScriptStep } from '../../tests/fakes/openai-server.js';
import { startTestCore } from '../../tests/helpers/test-core.js';
import { shortTurn } from '../support/chat-script.js';
import { messageText, type PrefixFigures, prefixFigures } from '../support/prefix-share.js';
import type { ScenarioOptions, ScenarioReport } from '../support/report.js';
import { caughtUp, obedientSummary } from '../support/scripted-summary.js';
import { round } from '../support/stats.js';

const QUESTIONS = 60;
/** One question in this many makes the model call the calculator first (two agent requests in one run). */
const TOOL_EVERY = 5;

const text = messageText;
const isSummaryCall = (r: RecordedRequest) =>
  /running summary|has grown too long/.test(text(r.body.messages[0]!));

/** A scripted model: short answers, a calculator call every TOOL_EVERY questions, obedient summaries. */
export function shortChatResponder(
  answerOf: (k: number) => string,
): (request: RecordedRequest) => ScriptStep {
  return (request) => {
    const first = text(request.body.messages[0]!);
    if (isSummaryCall(request)) {
      const maxWords = Number(/at most about (\d+) words/.exec(first)?.[1] ?? 300);
      return { content: obedientSummary(first, maxWords) };
    }
    const last = request.body.messages.at(-1)!;
    const question = [...request.body.messages].reverse().find((m) => m.role === 'user')!;
    const k = Number(/#(\d+)/.exec(text(question))?.[1]);
    const usedTool = last.role === 'tool' || /^Observation:/m.test(text(last));
    if (k % TOOL_EVERY === 0 && !usedTool && request.body.tools) {
      return {
        content: 'Let me compute that.',
        toolCalls: [{ name: 'calculator', arguments: { expression: `${k} * 17` } }],
      };
    }
    return { content: answerOf(k) };
  };
}

async function drive(
  settings: Record<string, string | undefined>,
): Promise<PrefixFigures & { answered: number }> {
  const bench = await startTestCore(
    Object.fromEntries(Object.entries(settings).filter((e): e is [string, string] => e[1] !== undefined)),
    { fallback: shortChatResponder((k) => shortTurn(k).answer) },
  );
  const key = 'bench:prompt-cache';
  const maxTokens = Number(settings.MEMORY_MAX_TOKENS ?? 2000);
  let answered = 0;
  try {
    for (let k = 1; k <= QUESTIONS; k++) {
      const turn = shortTurn(k);
      const outcome = await bench.core.assistant.ask(
        { key, author: turn.author, text: turn.question },
        () => {},
      );
      if (outcome.status === 'answered' && outcome.text === turn.answer) answered++;
      // As in a terminal: people take longer to type than the summariser takes to answer.
      await caughtUp(bench.core.assistant, key, maxTokens);
    }
    const agentRequests = bench.fake.requests.filter((r) => !isSummaryCall(r));
    return { ...prefixFigures(agentRequests), answered };
  } finally {
    await bench.close();
  }
}

/**
 * Prompt-cache friendliness, measured from outside: 60 short questions in one channel through the real core,
 * each agent request's tokens compared with the previous agent request's, as a prefix-caching server
 * (OpenAI, DeepSeek, vLLM, SGLang, llama.cpp) would reuse them.
 */
export async function run(_options: ScenarioOptions): Promise<ScenarioReport> {
  const runs = [
    { label: 'default memory (MEMORY_MAX_TOKENS=2000)', settings: {} },
    { label: 'frequent compressions (MEMORY_MAX_TOKENS=400)', settings: { MEMORY_MAX_TOKENS: '400' } },
  ];
  const results = [];
  for (const r of runs) results.push({ ...r, figures: await drive(r.settings) });
  const pct = (x: number) => `${round(x * 100, 1)}%`;
  const frequent = results[1]!.figures;
  return {
    name: 'prompt-cache',
    title: `Prompt-cache friendliness: ${QUESTIONS} short questions, each agent request against the one before it`,
    tables: [
      {
        columns: [
          'memory',
          'agent requests',
          'prefix share, average',
          'after a compression (n)',
          'after a compression, min',
          'other turns, min',
          'answers exact',
        ],
        rows: results.map(({ label, figures: f }) => [
          label,
          f.requests,
          pct(f.average),
          `${pct(f.afterCompression.average)} (${f.afterCompression.count})`,
          pct(f.afterCompression.min),
          pct(f.others.min),
          `${f.answered}/${QUESTIONS}`,
        ]),
      },
    ],
    targets: [
      {
        target: 'with frequent compressions, ≥ 95% of each request repeats the previous prefix on average',
        measured: pct(frequent.average),
        met: frequent.average >= 0.95,
      },
      {
        target: '≥ 80% on the turn after a compression',
        measured: `${pct(frequent.afterCompression.average)} average, ${pct(frequent.afterCompression.min)} min, over ${frequent.afterCompression.count} compressions`,
        met: frequent.afterCompression.count > 0 && frequent.afterCompression.average >= 0.8,
      },
    ],
    notes: [
      'Requests are tokenised (gpt-tokenizer, o200k) as tool definitions then each message in order; the share is the longest common token prefix over the later request.',
      `Every ${TOOL_EVERY}th question calls the calculator first, so a run makes two agent requests. Summary calls are left out: they are not part of the conversation's prefix.`,
      'Paced as in a terminal: the next question once compression has caught up.',
    ],
    data: results.map(({ label, settings, figures }) => ({ label, settings, figures })),
  };
}
