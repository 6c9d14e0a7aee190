import { statSync } from 'node:fs';
import { join } from 'node:path';
import { countTokens } from 'gpt-tokenizer';
import type { RecordedRequest, ScriptStep } from '../../tests/fakes/openai-server.js';
import { startTestCore } from '../../tests/helpers/test-core.js';
import { scriptedTurn } from '../support/chat-script.js';
import { messageText, type PrefixFigures, prefixFigures } from '../support/prefix-share.js';
import type { ScenarioOptions, ScenarioReport } from '../support/report.js';
import { caughtUp, obedientSummary, PER_MESSAGE } from '../support/scripted-summary.js';
import { round, since } from '../support/stats.js';

const TURNS = 500;
const CHECKPOINTS = [10, 100, 250, 500];
const SETTINGS = { MEMORY_MAX_TOKENS: 2000, MEMORY_KEEP_TURNS: 4, MEMORY_SUMMARY_MAX_TOKENS: 600 };
/** One summary in this many comes back too long, as real models sometimes do, to exercise re-compression. */
const OVERSHOOT_EVERY = 10;

type Message = RecordedRequest['body']['messages'][number];
const text = messageText;
const tokens = (messages: readonly Message[]) =>
  messages.reduce((sum, m) => sum + countTokens(text(m)) + PER_MESSAGE, 0);

interface PromptFigures {
  turn: number;
  /** Everything sent: messages plus the tool definitions. */
  prompt: number;
  /** System prompt, tool definitions and the new question: what every request costs with no memory. */
  fixed: number;
  /** Summary plus the verbatim turns. */
  memory: number;
  /** What the request would cost carrying the whole history instead. */
  wholeHistory: number;
  verbatimTurns: number;
}

interface Drive {
  figures: PromptFigures[];
  summaryCalls: number;
  compressCalls: number;
  answered: number;
  /** SQLite file plus WAL while running, and the file alone after shutdown. */
  dbLiveBytes: number;
  dbClosedBytes: number;
  historyBytes: number;
  elapsedMs: number;
  prefix: PrefixFigures;
}

/**
 * Scenario 2: one channel, 500 scripted turns through the real core (createCore: SQLite file, summariser,
 * queue) with MEMORY_MAX_TOKENS=2000. Prompt sizes are counted with gpt-tokenizer from the requests the
 * scripted model received. Run twice: back to back (each question the moment the previous answer is out,
 * so background compression lags behind) and paced (the next question once compression has caught up, as
 * whenever people take longer to type than the summariser takes to answer).
 */
export async function run(_options: ScenarioOptions): Promise<ScenarioReport> {
  const fast = await drive(false);
  const paced = await drive(true);

  const budget = SETTINGS.MEMORY_MAX_TOKENS + SETTINGS.MEMORY_SUMMARY_MAX_TOKENS;
  const hardCap = 2 * SETTINGS.MEMORY_MAX_TOKENS + SETTINGS.MEMORY_SUMMARY_MAX_TOKENS;
  const worstOf = (d: Drive) => d.figures.reduce((a, b) => (b.memory > a.memory ? b : a));
  const over = (d: Drive, limit: number) => d.figures.filter((f) => f.memory > limit).length;
  const fixedMax = Math.max(...fast.figures.map((f) => f.fixed), ...paced.figures.map((f) => f.fixed));
  const callsOf = (d: Drive) => d.summaryCalls + d.compressCalls;
  const callsAllowed = TURNS / SETTINGS.MEMORY_KEEP_TURNS;

  const promptRows = (label: string, d: Drive) => {
    const worst = worstOf(d);
    return [
      ...CHECKPOINTS.map((n) => {
        const f = d.figures[n - 1]!;
        return [`${label}: turn ${n}`, f.prompt, f.fixed, f.memory, f.verbatimTurns, f.wholeHistory];
      }),
      [
        `${label}: max (turn ${worst.turn})`,
        worst.prompt,
        worst.fixed,
        worst.memory,
        worst.verbatimTurns,
        worst.wholeHistory,
      ],
    ];
  };
  const costRow = (label: string, d: Drive) => [
    label,
    d.summaryCalls,
    d.compressCalls,
    round(TURNS / callsOf(d), 1),
    `${round(d.dbLiveBytes / 1024, 0)} KB`,
    `${round(d.dbClosedBytes / 1024, 0)} KB`,
    `${round(d.historyBytes / 1024, 0)} KB`,
    `${d.answered}/${TURNS}`,
    `${round(d.elapsedMs / 1000, 1)} s`,
  ];
  const pct = (x: number) => `${round(x * 100, 1)}%`;
  const prefixRow = (label: string, d: Drive) => [
    label,
    pct(d.prefix.average),
    `${pct(d.prefix.afterCompression.average)} (${d.prefix.afterCompression.count})`,
    pct(d.prefix.afterCompression.min),
    pct(d.prefix.others.min),
  ];
  const summarise = (d: Drive) => ({
    checkpoints: CHECKPOINTS.map((n) => d.figures[n - 1]),
    worst: worstOf(d),
    overBudget: over(d, budget),
    overMaxTokens: over(d, SETTINGS.MEMORY_MAX_TOKENS),
    summaryCalls: d.summaryCalls,
    compressCalls: d.compressCalls,
    answered: d.answered,
    dbLiveBytes: d.dbLiveBytes,
    dbClosedBytes: d.dbClosedBytes,
    historyBytes: d.historyBytes,
    elapsedMs: round(d.elapsedMs, 0),
    prefix: d.prefix,
  });

  return {
    name: 'memory-growth',
    title: `2. Memory growth: one channel, ${TURNS} turns, MEMORY_MAX_TOKENS=${SETTINGS.MEMORY_MAX_TOKENS} (KEEP_TURNS ${SETTINGS.MEMORY_KEEP_TURNS}, SUMMARY_MAX_TOKENS ${SETTINGS.MEMORY_SUMMARY_MAX_TOKENS})`,
    tables: [
      {
        columns: [
          'request',
          'prompt tokens',
          'fixed (system+tools+question)',
          'memory (summary+turns)',
          'verbatim turns',
          'whole history would be',
        ],
        rows: [...promptRows('paced', paced), ...promptRows('back to back', fast)],
      },
      {
        title: 'Prefix share: each request against the one before it (what a prefix-caching server reuses)',
        columns: [
          'pace',
          'average',
          'after a compression (n)',
          'after a compression, min',
          'other turns, min',
        ],
        rows: [prefixRow('paced', paced), prefixRow('back to back', fast)],
      },
      {
        columns: [
          'pace',
          'summary calls',
          're-compress calls',
          'turns per summariser call',
          'db + WAL running',
          'db after shutdown',
          'history text',
          'answers exact',
          'time',
        ],
        rows: [costRow('paced', paced), costRow('back to back', fast)],
      },
    ],
    targets: [
      {
        target: `paced: every request's memory ≤ MEMORY_MAX_TOKENS + MEMORY_SUMMARY_MAX_TOKENS (${budget}) over the fixed overhead (≤ ${fixedMax})`,
        measured: `max ${worstOf(paced).memory}; ${over(paced, budget)} of ${TURNS} over (${over(paced, SETTINGS.MEMORY_MAX_TOKENS)} over ${SETTINGS.MEMORY_MAX_TOKENS} alone)`,
        met: over(paced, budget) === 0,
      },
      {
        target: `back to back: every request's memory ≤ ${budget}`,
        measured: `max ${worstOf(fast).memory}; ${over(fast, budget)} of ${TURNS} over (hard cap of the design: 2 × MEMORY_MAX_TOKENS + summary = ${hardCap}, ${over(fast, hardCap)} over)`,
        met: over(fast, budget) === 0,
      },
      {
        target: `summariser calls ≤ one per MEMORY_KEEP_TURNS turns (≤ ${callsAllowed})`,
        measured: `paced ${callsOf(paced)}, back to back ${callsOf(fast)} (summaries + re-compressions)`,
        met: callsOf(paced) <= callsAllowed && callsOf(fast) <= callsAllowed,
      },
      {
        target: 'every answer delivered exactly as the model gave it',
        measured: `${paced.answered + fast.answered}/${2 * TURNS}`,
        met: paced.answered + fast.answered === 2 * TURNS,
      },
    ],
    notes: [
      'Through the real core: createCore with a SQLite file, the summariser and the per-channel queue; the scripted model runs in process with no latency.',
      `Tokens counted with gpt-tokenizer (o200k) on the request bodies the model received, ${PER_MESSAGE} per message added as OpenAI documents, tools as their JSON. Answers are 40–200 words; the scripted summariser keeps to the word limit its prompt states, except one summary in ${OVERSHOOT_EVERY}, which comes back 1.8× too long.`,
      '"paced" waits, after each answer, until the stored turns are back within MEMORY_MAX_TOKENS (compression done) before asking again.',
    ],
    data: { settings: SETTINGS, paced: summarise(paced), backToBack: summarise(fast) },
  };
}

async function drive(paced: boolean): Promise<Drive> {
  let summaryCalls = 0;
  let compressCalls = 0;
  const responder = (request: RecordedRequest): ScriptStep => {
    const first = text(request.body.messages[0]!);
    const maxWords = Number(/at most about (\d+) words/.exec(first)?.[1] ?? 300);
    if (first.startsWith('The summary of a chat below has grown too long')) {
      compressCalls++;
      return { content: obedientSummary(first, maxWords) };
    }
    if (first.startsWith('You keep the running summary')) {
      summaryCalls++;
      const limit = summaryCalls % OVERSHOOT_EVERY === 0 ? Math.round(maxWords * 1.8) : maxWords;
      return { content: obedientSummary(first, limit) };
    }
    const question = text(request.body.messages.at(-1)!);
    const k = Number(/#(\d+)/.exec(question)?.[1]);
    return { content: scriptedTurn(k).answer };
  };

  const bench = await startTestCore(
    Object.fromEntries(Object.entries(SETTINGS).map(([k, v]) => [k, String(v)])),
    { fallback: responder },
  );
  const key = 'bench:memory';
  const dbPath = join(bench.dir, 'thinkthread.db');
  const figures: PromptFigures[] = [];
  const agentRequests: RecordedRequest[] = [];
  let historyTokens = 0;
  let historyBytes = 0;
  let answered = 0;
  let dbLiveBytes = 0;
  let dbClosedBytes = 0;
  const started = performance.now();
  try {
    for (let k = 1; k <= TURNS; k++) {
      const turn = scriptedTurn(k);
      const seen = bench.fake.requests.length;
      const outcome = await bench.core.assistant.ask(
        { key, author: turn.author, text: turn.question },
        () => {},
      );
      if (outcome.status === 'answered' && outcome.text === turn.answer) answered++;
      // The agent's request is the one ending with this question (summary calls may interleave).
      const request = bench.fake.requests
        .slice(seen)
        .find((r) => text(r.body.messages.at(-1)!).includes(`#${k} `));
      if (!request) throw new Error(`no model request for turn ${k}`);
      agentRequests.push(request);
      const messages = request.body.messages;
      const toolTokens = request.body.tools ? countTokens(JSON.stringify(request.body.tools)) : 0;
      const fixed = tokens([messages[0]!, messages.at(-1)!]) + toolTokens;
      const prompt = tokens(messages) + toolTokens;
      figures.push({
        turn: k,
        prompt,
        fixed,
        memory: prompt - fixed,
        wholeHistory: fixed + historyTokens,
        verbatimTurns: messages.filter((m) => m.role === 'assistant').length,
      });
      historyTokens +=
        countTokens(`[${turn.author}] ${turn.question}`) + countTokens(turn.answer) + 2 * PER_MESSAGE;
      historyBytes += Buffer.byteLength(turn.question) + Buffer.byteLength(turn.answer);
      if (paced) await caughtUp(bench.core.assistant, key, SETTINGS.MEMORY_MAX_TOKENS);
    }
    dbLiveBytes = fileBytes(dbPath);
    await bench.core.close(); // waits for the last compression, closes the database
    dbClosedBytes = fileBytes(dbPath);
  } finally {
    await bench.close();
  }
  return {
    figures,
    summaryCalls,
    compressCalls,
    answered,
    dbLiveBytes,
    dbClosedBytes,
    historyBytes,
    elapsedMs: since(started),
    prefix: prefixFigures(agentRequests),
  };
}

function fileBytes(path: string): number {
  let total = 0;
  for (const suffix of ['', '-wal', '-shm']) {
    try {
      total += statSync(path + suffix).size;
    } catch {
      // absent
    }
  }
  return total;
}
