import { fork } from 'node:child_process';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { countTokens } from '../../src/core/memory/tokens.js';
import { markdownToMrkdwn } from '../../src/platforms/slack/mrkdwn.js';
import { startBenchCore } from '../support/bench-core.js';
import type { ScenarioOptions, ScenarioReport, TargetCheck } from '../support/report.js';
import { round, since } from '../support/stats.js';

const MB = 1_000_000;
/** Characters per streamed event (about 16 tokens), and events per write (one write a millisecond or so). */
const EVENT_CHARS = 64;
const EVENTS_PER_WRITE = 16;
/** The loop may stall this long at worst while a megabyte streams through a run. */
const TARGET_P99_MS = 50;

interface Row {
  answer: string;
  wallMs: number;
  p99Ms: number;
  maxMs: number;
  rememberedTokens: number;
  otherChannelMs: number;
}

/** A model process answering `unit` repeated to `chars` characters; resolves with its URL and a way to stop it. */
async function startLongAnswerModel(unit: string, chars: number) {
  const child = fork(
    fileURLToPath(new URL('../support/long-answer-model-child.ts', import.meta.url)),
    [JSON.stringify({ unit, chars, eventChars: EVENT_CHARS, eventsPerWrite: EVENTS_PER_WRITE })],
    { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`model process exited early (${code})`)));
    child.on('message', (m: { type: string; url: string }) => m.type === 'ready' && resolve(m.url));
  });
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.disconnect();
      }),
  };
}

async function measure(label: string, unit: string, chars: number): Promise<Row> {
  const model = await startLongAnswerModel(unit, chars);
  const bench = await startBenchCore(model.url, { MEMORY_MAX_TOKENS: '20000' });
  try {
    const { assistant } = bench.core;
    // Once through unmeasured, so that what is measured is not the first, unoptimised pass over the stream.
    await assistant.ask({ key: 'warmup', author: 'bench', text: 'say a lot' }, () => {});
    const delay = monitorEventLoopDelay({ resolution: 5 });
    delay.enable();
    const start = performance.now();
    const long = assistant.ask({ key: 'a', author: 'bench', text: 'say a lot' }, () => {});
    // A question in another channel while the megabyte streams: it shares the event loop.
    const other = performance.now();
    await assistant.ask({ key: 'b', author: 'bench', text: 'and you?' }, () => {});
    const otherChannelMs = since(other);
    await long;
    const wallMs = since(start);
    delay.disable();
    const memory = await assistant.memory('a');
    return {
      answer: label,
      wallMs: round(wallMs, 0),
      p99Ms: round(delay.percentile(99) / 1e6, 1),
      maxMs: round(delay.max / 1e6, 1),
      rememberedTokens: memory.turns === 1 ? memory.tokens : 0,
      otherChannelMs: round(otherChannelMs, 0),
    };
  } finally {
    await bench.close();
    await model.close();
  }
}

function timed(run: () => unknown): number {
  const start = performance.now();
  run();
  return round(since(start), 1);
}

/**
 * Hostile output: a 1 MB answer (one letter repeated, as a degenerate model does, and ordinary prose)
 * streamed through a whole run of the real core, with event-loop delay measured throughout; and the cost
 * of text handling that used to be quadratic (token counting, Slack formatting) on 80,000 characters.
 */
export async function run(options: ScenarioOptions): Promise<ScenarioReport> {
  const size = options.quick ? MB / 4 : MB;
  const prose = 'The quick brown fox jumps over the lazy dog, again and again. ';
  const rows = [
    await measure(`${size / MB} MB of one letter`, 'a', size),
    await measure(`${size / MB} MB of prose`, prose, size),
  ];
  const counting = [
    ['80,000 × "a"', timed(() => countTokens('a'.repeat(80_000)))],
    ['80,000 chars of prose', timed(() => countTokens(prose.repeat(80_000 / prose.length)))],
    ['Slack mrkdwn of 80,000 chars of "**a "', timed(() => markdownToMrkdwn('**a '.repeat(20_000)))],
  ];
  const worst = Math.max(...rows.map((r) => r.p99Ms));
  const targets: TargetCheck[] = [
    {
      target: `event-loop delay p99 while a ${size / MB} MB answer goes through a run ≤ ${TARGET_P99_MS} ms`,
      measured: `${worst} ms`,
      met: worst <= TARGET_P99_MS,
    },
  ];
  return {
    name: 'long-answer',
    title: 'Long answers: a megabyte through one run, with a question in another channel meanwhile',
    tables: [
      {
        columns: ['answer', 'run ms', 'loop p99 ms', 'loop max ms', 'remembered tokens', 'other channel ms'],
        rows: rows.map((r) => [r.answer, r.wallMs, r.p99Ms, r.maxMs, r.rememberedTokens, r.otherChannelMs]),
      },
      { title: 'Text handling once quadratic', columns: ['work', 'ms'], rows: counting },
    ],
    targets,
    notes: [
      `The model streams ${EVENT_CHARS}-character events, ${EVENTS_PER_WRITE} per write, about a write a millisecond, ` +
        'from its own process; ANSWER_MAX_CHARS is at its default.',
    ],
    data: { rows, counting },
  };
}
