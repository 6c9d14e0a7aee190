import pg from 'pg';
import { startFakeOpenAI } from '../../tests/fakes/openai-server.js';
import { eventCallback, sendSigned, startFakeSlack, visibleText } from '../../tests/fakes/slack-server.js';
import { freePort } from '../../tests/helpers/free-port.js';
import { type BotProcess, spawnBot } from '../../tests/helpers/spawn-bot.js';
import { waitForHttp } from '../../tests/helpers/wait-for-http.js';
import type { ScenarioOptions, ScenarioReport } from '../support/report.js';
import { percentile, round } from '../support/stats.js';

const SECRET = 'bench-fleet-signing-secret';
const MODEL_DELAY_MS = 100;

interface FleetRun {
  replicas: number;
  questions: number;
  wallMs: number;
  perSecond: number;
  firstEditP50: number;
  firstEditP99: number;
}

/**
 * Scenario: real bot processes (Slack HTTP mode) on one Postgres schema, 1 then 3 replicas, a fan-in of
 * many channels (one question each, spread round-robin) against a model answering in 100 ms: throughput,
 * and event → first edit of the placeholder (p50/p99). Needs BENCH_DATABASE_URL or TEST_DATABASE_URL.
 */
export async function run(options: ScenarioOptions): Promise<ScenarioReport> {
  const base = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  const title = 'Scale-out fleet: 1 vs 3 Slack replicas on Postgres (model 100 ms)';
  if (!base) {
    return {
      name: 'scale-out-fleet',
      title,
      tables: [],
      targets: [],
      notes: ['Set BENCH_DATABASE_URL (or TEST_DATABASE_URL) to a Postgres database to run this scenario.'],
      data: null,
    };
  }
  const questions = options.quick ? 60 : 200;
  const runs: FleetRun[] = [];
  for (const replicas of [1, 3]) runs.push(await fleet(base, replicas, questions));
  return {
    name: 'scale-out-fleet',
    title,
    tables: [
      {
        columns: ['replicas', 'questions', 'wall (ms)', 'answers/s', 'first edit p50 (ms)', 'p99 (ms)'],
        rows: runs.map((r) => [
          r.replicas,
          r.questions,
          round(r.wallMs, 0),
          round(r.perSecond, 1),
          round(r.firstEditP50, 0),
          round(r.firstEditP99, 0),
        ]),
      },
    ],
    targets: [],
    notes: [
      'Each replica answers MAX_CONCURRENT_RUNS (16) questions at once; all replicas share this machine’s cores.',
      'Pickup, hand-off and failover times of the shared line are in the scale-out scenario.',
    ],
    data: runs,
  };
}

async function fleet(baseUrl: string, replicas: number, questions: number): Promise<FleetRun> {
  const schema = `bench_fleet_${Date.now().toString(36)}`;
  const u = new URL(baseUrl);
  u.searchParams.set('schema', schema);
  const slack = await startFakeSlack({ users: { UALICE: { name: 'alice' } } });
  const model = await startFakeOpenAI({ fallback: () => ({ content: 'Done.', delayMs: MODEL_DELAY_MS }) });
  const bots: { bot: BotProcess; url: string }[] = [];
  try {
    for (let i = 0; i < replicas; i++) {
      const port = await freePort();
      const bot = spawnBot({
        OPENAI_BASE_URL: model.url,
        DATABASE_URL: u.toString(),
        SLACK_BOT_TOKEN: 'xoxb-bench-fleet',
        SLACK_SIGNING_SECRET: SECRET,
        SLACK_API_URL: slack.apiUrl,
        PORT: String(port),
        STREAM_EDIT_INTERVAL_MS: '10',
        LOG_LEVEL: 'warn',
        RATE_LIMIT_USER: '100000/hour',
        RATE_LIMIT_CHANNEL: '100000/hour',
      });
      bots.push({ bot, url: `http://127.0.0.1:${port}` });
      // One at a time: replicas starting together would all migrate the fresh schema at once.
      await waitForHttp(`${bots[i]!.url}/readyz`, (status) => status === 200, { timeoutMs: 60_000 });
    }
    const sentAt = new Map<string, number>();
    const started = performance.now();
    await Promise.all(
      Array.from({ length: questions }, async (_, i) => {
        const channel = `CB${i}`;
        const body = eventCallback({
          type: 'app_mention',
          user: 'UALICE',
          text: `<@UBOT> question ${i}`,
          ts: `${Date.now() / 1000}${i}`,
          channel,
        });
        sentAt.set(channel, performance.now());
        await sendSigned(
          `${bots[i % replicas]!.url}/slack/events`,
          { json: body },
          { signingSecret: SECRET },
        );
      }),
    );
    await slack.waitFor(
      () => slack.messages.filter((m) => visibleText(m) === 'Done.').length >= questions,
      120_000,
    );
    const wallMs = performance.now() - started;
    const firstEdits = slack.messages
      .filter((m) => sentAt.has(m.channel))
      .map((m) => (m.versions[1]?.at ?? m.versions[0]!.at) - sentAt.get(m.channel)!);
    return {
      replicas,
      questions,
      wallMs,
      perSecond: questions / (wallMs / 1000),
      firstEditP50: percentile(firstEdits, 50),
      firstEditP99: percentile(firstEdits, 99),
    };
  } finally {
    for (const { bot } of bots) bot.child.kill('SIGKILL');
    await Promise.all(bots.map(({ bot }) => bot.exited));
    await model.close();
    await slack.close();
    const admin = new pg.Client({ connectionString: baseUrl });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  }
}
