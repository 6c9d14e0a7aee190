import { eventCallback, visibleText } from '../../tests/fakes/slack-server.js';
import { startDiscordBed } from '../../tests/platforms/discord/harness.js';
import { mention, startSlackHarness, topLevel } from '../../tests/platforms/slack/slack-harness.js';
import { startPacedModel } from '../support/paced-model.js';
import type { ScenarioOptions, ScenarioReport, TargetCheck } from '../support/report.js';
import { median, round, since } from '../support/stats.js';

const ANSWER_CHARS = 6000;
const INTERVAL_MS = 1000;
/** The model streams 20 characters every 20 ms: 6,000 characters in about 6 s (~250 tokens/s). */
const STREAM = { chunkChars: 20, chunkEveryMs: 20 };
/** Discord's documented order of magnitude for message routes: 5 per 5 s per channel, enforced by the fake. */
const DISCORD_CHANNEL_LIMIT = { requests: 5, perMs: 5000 };
/** Arrival times at the fake can bunch up by a few ms against send times. */
const JITTER_MS = 25;
/** Short questions asked after the long one, for the event → placeholder median. */
const PLACEHOLDER_SAMPLES = 7;

interface Pacing {
  platform: string;
  requests: number;
  byKind: Record<string, number>;
  messages: number;
  editsMax: number;
  minGapMs: number;
  maxEditsPerSec: number;
  status429: number;
  exact: boolean;
  longestPart: number;
  wallMs: number;
  /** From the incoming event to the placeholder (or stream start) request reaching the platform: median of samples. */
  placeholderMs: number;
  placeholderSamples: number[];
  /** From the model's first answer token to the first request that shows answer text. */
  firstWordsMs: number;
}

/**
 * Scenario 4: a 6,000-character answer streamed through the real adapters, the real core and the fake
 * Discord and Slack, with STREAM_EDIT_INTERVAL_MS at its default (1000): requests made, edits per message
 * and their spacing, 429s, and whether what people end up seeing is exactly the model's text.
 */
export async function run(_options: ScenarioOptions): Promise<ScenarioReport> {
  const answer = longAnswer(ANSWER_CHARS);
  const results: Pacing[] = [];
  const env = { STREAM_EDIT_INTERVAL_MS: String(INTERVAL_MS) };

  {
    const model = await startPacedModel({ text: answer, ...STREAM });
    const bed = await startDiscordBed(
      { ...env, OPENAI_BASE_URL: model.url },
      { discord: { channelLimit: DISCORD_CHANNEL_LIMIT } },
    );
    try {
      const { discord } = bed;
      const before = discord.calls.length;
      const start = performance.now();
      const sentAt = Date.now();
      const question = await bed.say('write a long answer'); // resolves once the bot has finished
      const wallMs = since(start);
      const reply = bed.replyTo(question);
      const calls = discord.calls.slice(before).filter((c) => !c.path.startsWith('/interactions/'));
      const parts = discord
        .messages(discord.channelId)
        .filter((m) => m.author.id === discord.bot.id && BigInt(m.id) >= BigInt(reply.id))
        .map((m) => m.content as string);
      const edits = new Map<string, number[]>();
      for (const c of calls) {
        const id = c.method === 'PATCH' ? /\/messages\/(\d+)$/.exec(c.path)?.[1] : undefined;
        if (id && c.status === 200) edits.set(id, [...(edits.get(id) ?? []), c.at]);
      }
      const placeholder = calls.find((c) => c.method === 'POST' && /\/channels\/\d+\/messages$/.test(c.path));
      const firstWords = calls.find(
        (c) => c.method === 'PATCH' && JSON.stringify(c.body ?? '').includes(answer.slice(0, 20)),
      );
      results.push({
        ...summarise(
          'Discord (mention → reply + thread)',
          calls.map((c) => ({ kind: `${c.method} ${route(c.path)}`, status: c.status })),
          edits,
          parts,
          answer,
          wallMs,
        ),
        ...placeholders(placeholder ? placeholder.at - sentAt : Number.NaN, await discordPlaceholders(env)),
        firstWordsMs: firstWords ? firstWords.at - (model.firstChunk()?.wall ?? Number.NaN) : Number.NaN,
      });
    } finally {
      await bed.close();
      await model.close();
    }
  }

  {
    const model = await startPacedModel({ text: answer, ...STREAM });
    // The edit layout: the row measures chat.update pacing (native streaming makes no edits).
    const h = await startSlackHarness('socket', {
      env: { ...env, SLACK_STREAMING: 'edit', OPENAI_BASE_URL: model.url },
    });
    try {
      const before = h.slack.calls.length;
      const start = performance.now();
      await h.deliver(eventCallback(mention('write a long answer')));
      await h.slack.waitFor(() => model.requests() > 0, 10_000);
      await h.settle();
      const wallMs = since(start);
      const calls = h.slack.calls.slice(before);
      const edits = new Map<string, number[]>();
      for (const c of calls) {
        if (c.method === 'chat.update' && c.status === 200) {
          const key = `${c.args.channel}/${c.args.ts}`;
          edits.set(key, [...(edits.get(key) ?? []), c.at]);
        }
      }
      const parts = topLevel(h).map((m) => visibleText(m));
      const placeholder = calls.find((c) => c.method === 'chat.postMessage');
      const firstWords = calls.find(
        (c) => c.method === 'chat.update' && JSON.stringify(c.args).includes(answer.slice(0, 20)),
      );
      results.push({
        ...summarise(
          'Slack (Socket Mode, mention → message + thread)',
          calls.map((c) => ({ kind: c.method, status: c.status })),
          edits,
          parts,
          answer,
          wallMs,
        ),
        ...placeholders(placeholder ? placeholder.at - start : Number.NaN, await slackPlaceholders(env)),
        firstWordsMs: firstWords ? firstWords.at - (model.firstChunk()?.mono ?? Number.NaN) : Number.NaN,
      });
    } finally {
      await h.close();
      await model.close();
    }
  }

  const ms = (x: number) => (Number.isFinite(x) ? `${Math.round(x)} ms` : 'not seen');
  const targets: TargetCheck[] = results.flatMap((r) => [
    {
      target: `${r.platform}: from the model's first answer token to the first edit showing it ≤ 150 ms`,
      measured: ms(r.firstWordsMs),
      met: r.firstWordsMs <= 150,
    },
    {
      target: `${r.platform}: from the incoming event to the placeholder, p50 ≤ 100 ms (${r.placeholderSamples.length} samples)`,
      measured: `p50 ${ms(r.placeholderMs)} (samples ${r.placeholderSamples.map((x) => Math.round(x)).join(', ')} ms)`,
      met: r.placeholderMs <= 100,
    },
    {
      target: `${r.platform}: at most one edit per message per STREAM_EDIT_INTERVAL_MS (${INTERVAL_MS} ms)`,
      measured: `closest edits of one message ${Number.isFinite(r.minGapMs) ? `${r.minGapMs} ms apart` : '(none twice)'}; at most ${r.editsMax} edits of one message`,
      met: !(r.minGapMs < INTERVAL_MS - JITTER_MS),
    },
    { target: `${r.platform}: zero 429s`, measured: String(r.status429), met: r.status429 === 0 },
    {
      target: `${r.platform}: the final text exactly the model's`,
      measured: r.exact ? `yes, in ${r.messages} message(s), longest ${r.longestPart} chars` : 'NO',
      met: r.exact,
    },
  ]);
  return {
    name: 'platform-pacing',
    title: `4. Platform pacing: a ${ANSWER_CHARS.toLocaleString('en')}-character answer streamed at ~${Math.round((STREAM.chunkChars * 1000) / STREAM.chunkEveryMs)} chars/s, STREAM_EDIT_INTERVAL_MS=${INTERVAL_MS}`,
    tables: [
      {
        columns: [
          'platform',
          'requests',
          'messages',
          'edits (max of one message)',
          'closest edits',
          'edits/s (max of one message)',
          '429s',
          'final text exact',
          'event → placeholder',
          'first token → first words',
          'time',
        ],
        rows: results.map((r) => [
          r.platform,
          r.requests,
          r.messages,
          r.editsMax,
          Number.isFinite(r.minGapMs) ? `${r.minGapMs} ms` : '—',
          r.maxEditsPerSec,
          r.status429,
          r.exact ? 'yes' : 'NO',
          ms(r.placeholderMs),
          ms(r.firstWordsMs),
          `${round(r.wallMs / 1000, 1)} s`,
        ]),
      },
    ],
    targets,
    notes: [
      'The real adapters (discord.js, Bolt in Socket Mode) and the real core, against the platform fakes and a model that streams the answer at a steady rate.',
      `The fake Discord enforces ${DISCORD_CHANNEL_LIMIT.requests} message requests per ${DISCORD_CHANNEL_LIMIT.perMs / 1000} s per channel with X-RateLimit headers and 429s; the fake Slack enforces no limit, so its row shows the pacing the adapter chooses by itself.`,
      `Requests by kind: ${results
        .map(
          (r) =>
            `${r.platform}: ${Object.entries(r.byKind)
              .map(([k, n]) => `${k} ×${n}`)
              .join(', ')}`,
        )
        .join('; ')}.`,
    ],
    data: { answerChars: ANSWER_CHARS, intervalMs: INTERVAL_MS, stream: STREAM, results },
  };
}

function summarise(
  platform: string,
  calls: { kind: string; status: number }[],
  edits: Map<string, number[]>,
  parts: string[],
  answer: string,
  wallMs: number,
): Omit<Pacing, 'placeholderMs' | 'placeholderSamples' | 'firstWordsMs'> {
  const byKind: Record<string, number> = {};
  for (const c of calls) byKind[c.kind] = (byKind[c.kind] ?? 0) + 1;
  let minGapMs = Number.POSITIVE_INFINITY;
  let maxEditsPerSec = 0;
  for (const times of edits.values()) {
    for (let i = 1; i < times.length; i++) minGapMs = Math.min(minGapMs, times[i]! - times[i - 1]!);
    // The most edits of this message inside any one-second window.
    for (let i = 0; i < times.length; i++) {
      const within = times.filter((t) => t >= times[i]! && t < times[i]! + 1000).length;
      maxEditsPerSec = Math.max(maxEditsPerSec, within);
    }
  }
  const words = (text: string) => text.split(/\s+/).filter(Boolean);
  const seen = words(parts.join('\n'));
  const expected = words(answer);
  return {
    platform,
    requests: calls.length,
    byKind,
    messages: parts.length,
    editsMax: Math.max(0, ...[...edits.values()].map((t) => t.length)),
    minGapMs: Number.isFinite(minGapMs) ? Math.round(minGapMs) : minGapMs,
    maxEditsPerSec,
    status429: calls.filter((c) => c.status === 429).length,
    exact: seen.length === expected.length && seen.every((w, i) => w === expected[i]),
    longestPart: Math.max(...parts.map((p) => p.length)),
    wallMs,
  };
}

/** The long question's sample and the short questions' samples, with their median. */
function placeholders(
  first: number,
  more: number[],
): { placeholderMs: number; placeholderSamples: number[] } {
  const samples = [first, ...more].filter(Number.isFinite);
  return { placeholderMs: samples.length ? median(samples) : Number.NaN, placeholderSamples: samples };
}

/** Event → placeholder for short questions on Discord, one at a time (no channel limit: it is not pacing here). */
async function discordPlaceholders(env: Record<string, string>): Promise<number[]> {
  const model = await startPacedModel({ text: 'A short answer.', ...STREAM });
  const bed = await startDiscordBed({ ...env, OPENAI_BASE_URL: model.url });
  try {
    const samples: number[] = [];
    for (let i = 0; i < PLACEHOLDER_SAMPLES; i++) {
      const before = bed.discord.calls.length;
      const sentAt = Date.now();
      await bed.say(`short question ${i}`);
      const post = bed.discord.calls
        .slice(before)
        .find((c) => c.method === 'POST' && /\/channels\/\d+\/messages$/.test(c.path));
      if (post) samples.push(post.at - sentAt);
    }
    return samples;
  } finally {
    await bed.close();
    await model.close();
  }
}

/** Event → placeholder for short questions on Slack (Socket Mode, edit layout), one at a time. */
async function slackPlaceholders(env: Record<string, string>): Promise<number[]> {
  const model = await startPacedModel({ text: 'A short answer.', ...STREAM });
  const h = await startSlackHarness('socket', {
    env: { ...env, SLACK_STREAMING: 'edit', OPENAI_BASE_URL: model.url },
  });
  try {
    const samples: number[] = [];
    for (let i = 0; i < PLACEHOLDER_SAMPLES; i++) {
      const before = h.slack.calls.length;
      const start = performance.now();
      await h.deliver(eventCallback(mention(`short question ${i}`)));
      await h.slack.waitFor(() => model.requests() > i, 10_000);
      await h.settle();
      const post = h.slack.calls.slice(before).find((c) => c.method === 'chat.postMessage');
      if (post) samples.push(post.at - start);
    }
    return samples;
  } finally {
    await h.close();
    await model.close();
  }
}

/** A REST path with its ids replaced, to count requests by kind. */
function route(path: string): string {
  return path.replace(/\d{5,}/g, ':id').replace(/\/webhooks\/[^/]+\/[^/]+/, '/webhooks/:app/:token');
}

/** Plain prose (no Markdown, nothing Slack escapes), in paragraphs, exactly `chars` long. */
function longAnswer(chars: number): string {
  const sentence = (n: number) =>
    `Sentence ${n} explains one more step of the plan, with numbers like ${n * 17} and ${n * 31}, so nothing repeats exactly. `;
  let text = '';
  for (let n = 1; text.length < chars; n++) text += n % 6 === 0 ? `${sentence(n).trim()}\n\n` : sentence(n);
  return `${text.slice(0, chars - 1).replace(/\s$/, 's')}.`;
}
