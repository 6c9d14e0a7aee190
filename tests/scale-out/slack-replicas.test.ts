import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type FakeOpenAI, type RecordedRequest, startFakeOpenAI } from '../fakes/openai-server.js';
import {
  eventCallback,
  type FakeSlack,
  type FakeSlackMessage,
  sendSigned,
  startFakeSlack,
  userTs,
  visibleText,
} from '../fakes/slack-server.js';
import { freePort } from '../helpers/free-port.js';
import { createGate } from '../helpers/gate.js';
import { type BotProcess, spawnBot } from '../helpers/spawn-bot.js';
import { waitForHttp } from '../helpers/wait-for-http.js';
import { mention } from '../platforms/slack/slack-harness.js';
import { asAdmin, dropSchema, freshSchema, postgresSuite, withSchema } from '../store/postgres-test-db.js';

const SIGNING_SECRET = 'replicas-signing-secret-123456';
const TEAM = 'T0001';

/** The question label (`C1-Q2`) a model request is about: the newest user message's. */
function labelOf(request: RecordedRequest): string {
  const users = request.body.messages.filter((m) => m.role === 'user');
  const text = JSON.stringify(users.at(-1)?.content ?? '');
  return /C\d+-Q\d+/.exec(text)?.[0] ?? '?';
}

postgresSuite('three Slack replicas on one Postgres', (databaseUrl) => {
  describe('three Slack replicas on one Postgres', () => {
    const schema = freshSchema();
    const url = withSchema(databaseUrl, schema);
    const held = createGate();
    let slack: FakeSlack;
    let model: FakeOpenAI;
    const replicas: { bot: BotProcess; events: string }[] = [];
    let next = 0;

    beforeAll(async () => {
      slack = await startFakeSlack({ users: { UALICE: { name: 'alice', display_name: 'Alice' } } });
      model = await startFakeOpenAI({
        fallback: (request) => {
          const label = labelOf(request);
          const reply = { content: `Answer to ${label}.` };
          // A question labelled "hold" is answered only when the test says so (never, if its replica dies).
          return JSON.stringify(request.body.messages.at(-1)).includes('hold')
            ? { ...reply, until: held.promise }
            : reply;
        },
      });
      for (let i = 0; i < 3; i++) {
        const port = await freePort();
        const bot = spawnBot({
          OPENAI_BASE_URL: model.url,
          DATABASE_URL: url,
          SLACK_BOT_TOKEN: 'xoxb-replicas-secret-123456',
          // The line is the same in both layouts; the edit layout's placeholder is what a crash notice replaces.
          SLACK_STREAMING: 'edit',
          SLACK_SIGNING_SECRET: SIGNING_SECRET,
          SLACK_API_URL: slack.apiUrl,
          PORT: String(port),
          STREAM_EDIT_INTERVAL_MS: '10',
          LOG_LEVEL: 'info',
        });
        replicas.push({ bot, events: `http://127.0.0.1:${port}/slack/events` });
      }
      await Promise.all(
        replicas.map(({ bot, events }) =>
          waitForHttp(events.replace('/slack/events', '/readyz'), (status) => status === 200, {
            exited: () => bot.child.exitCode !== null,
            timeoutMs: 60_000,
          }),
        ),
      );
    }, 90_000);

    afterAll(async () => {
      held.open();
      for (const { bot } of replicas) if (bot.child.exitCode === null) bot.child.kill('SIGKILL');
      await Promise.all(replicas.map(({ bot }) => bot.exited));
      await model?.close();
      await slack?.close();
      await dropSchema(databaseUrl, schema);
    });

    const alive = () => replicas.filter(({ bot }) => bot.child.exitCode === null && !bot.child.killed);
    /** Sends a signed event to the next live replica, round-robin; returns the replica. */
    const send = async (body: unknown, retryNum?: number, to?: (typeof replicas)[number]) => {
      const live = alive();
      const replica = to ?? live[next++ % live.length]!;
      const res = await sendSigned(
        replica.events,
        { json: body },
        { signingSecret: SIGNING_SECRET, ...(retryNum ? { retryNum } : {}) },
      );
      expect(res.status).toBe(200);
      return replica;
    };
    const topLevel = (channel: string): FakeSlackMessage[] =>
      slack.messages.filter((m) => m.channel === channel && m.threadTs === undefined);
    /** Asks `label` in `channel` (and sends Slack's retry of it to another replica), once it was accepted. */
    const ask = async (channel: string, label: string, options: { retry?: boolean } = {}) => {
      const body = eventCallback(mention(`${label} what comes next?`, { channel }), { team: TEAM });
      const shown = topLevel(channel).length;
      await send(body);
      if (options.retry !== false) await send(body, 1);
      // Its placeholder shows it took its place in line; the next question comes after it.
      await slack.waitFor(() => topLevel(channel).length > shown, 20_000);
    };
    const turns = async (channel: string) =>
      asAdmin(databaseUrl, async (c) => {
        const { rows } = await c.query<{ question: string; answer: string }>(
          `SELECT question, answer FROM "${schema}".turns WHERE key = $1 ORDER BY id`,
          [`slack:${TEAM}:${channel}`],
        );
        return rows.map((r) => `${/C\d+-Q\d+/.exec(r.question)?.[0]} → ${r.answer}`);
      });

    it('answers each event once, in order per channel, each answer seeing the turns before it', async () => {
      const channels = ['C1', 'C2', 'C3'];
      const questions = [1, 2, 3, 4];
      await Promise.all(
        channels.map(async (channel) => {
          for (const n of questions) await ask(channel, `${channel}-Q${n}`);
        }),
      );
      for (const channel of channels) {
        const expected = questions.map((n) => `Answer to ${channel}-Q${n}.`);
        await slack.waitFor(
          () => topLevel(channel).filter((m) => visibleText(m).startsWith('Answer to')).length === 4,
          30_000,
        );
        // One message per question (the retries started nothing), answered in the order asked.
        expect(topLevel(channel).map((m) => visibleText(m))).toEqual(expected);
        const asked = model.requests.map(labelOf).filter((l) => l.startsWith(`${channel}-`));
        expect(asked).toEqual(questions.map((n) => `${channel}-Q${n}`));
        // Each question was asked with every earlier answer of its channel in the conversation.
        const last = model.requests.find((r) => labelOf(r) === `${channel}-Q4`)!;
        for (const n of [1, 2, 3])
          expect(JSON.stringify(last.body.messages)).toContain(`Answer to ${channel}-Q${n}.`);
        // Each turn is stored just after its answer shows.
        await vi.waitFor(
          async () =>
            expect(await turns(channel)).toEqual(
              questions.map((n) => `${channel}-Q${n} → Answer to ${channel}-Q${n}.`),
            ),
          { timeout: 10_000, interval: 50 },
        );
      }
    }, 120_000);

    it('a follow-up in a followed thread, delivered to two replicas, is answered once', async () => {
      const channel = 'C5';
      const question = mention('C5-Q1 what comes next?', { channel });
      await send(eventCallback(question, { team: TEAM }));
      await slack.waitFor(() => topLevel(channel).some((m) => visibleText(m) === 'Answer to C5-Q1.'), 30_000);
      // Following is written once the answer is final; any replica reads it from the shared store.
      const thread = `slack:${TEAM}:${channel}:${question.ts}`;
      await vi.waitFor(
        async () => {
          const followed = await asAdmin(databaseUrl, (c) =>
            c.query(`SELECT asker FROM "${schema}".followed_threads WHERE key = $1`, [thread]),
          );
          expect(followed.rows).toEqual([{ asker: `slack:${TEAM}:UALICE` }]);
        },
        { timeout: 10_000, interval: 50 },
      );
      const followUp = eventCallback(
        {
          type: 'message',
          channel_type: 'channel',
          user: 'UALICE',
          text: 'C5-Q2 and after that?',
          ts: userTs(),
          channel,
          thread_ts: question.ts,
        },
        { team: TEAM },
      );
      const [a, b] = alive();
      await Promise.all([send(followUp, undefined, a), send(followUp, 1, b)]);
      const inThread = () =>
        slack.messages.filter((m) => m.channel === channel && m.threadTs === question.ts);
      await slack.waitFor(() => inThread().some((m) => visibleText(m) === 'Answer to C5-Q2.'), 30_000);
      expect(model.requests.map(labelOf).filter((l) => l === 'C5-Q2')).toHaveLength(1);
      expect(inThread().filter((m) => visibleText(m).startsWith('Answer to'))).toHaveLength(1);
    }, 60_000);

    it('a replica killed mid-answer: its placeholder says so, and the channel goes on', async () => {
      const channel = 'C4';
      const victim = alive()[0]!;
      // C4-Q1 is held at the model on the victim; C4-Q2 and Q3 wait behind it on the other replicas.
      const body = eventCallback(mention('C4-Q1 hold on', { channel }), { team: TEAM });
      await send(body, undefined, victim);
      await slack.waitFor(() => topLevel(channel).length === 1, 20_000);
      await vi.waitFor(() => expect(model.requests.map(labelOf)).toContain('C4-Q1'), {
        timeout: 20_000,
        interval: 20,
      });
      const others = alive().filter((r) => r !== victim);
      await send(
        eventCallback(mention('C4-Q2 what comes next?', { channel }), { team: TEAM }),
        undefined,
        others[0],
      );
      await slack.waitFor(() => topLevel(channel).length === 2, 20_000);
      // Where the placeholder is gets recorded in the shared line once it is posted; then the victim dies.
      await vi.waitFor(
        async () => {
          const placed = await asAdmin(databaseUrl, (c) =>
            c.query(`SELECT 1 FROM "${schema}".run_inbox WHERE key = $1 AND placeholder IS NOT NULL`, [
              `slack:${TEAM}:${channel}`,
            ]),
          );
          expect(placed.rowCount).toBeGreaterThan(0);
        },
        { timeout: 10_000, interval: 50 },
      );
      victim.bot.child.kill('SIGKILL');
      await victim.bot.exited;
      // Slack retries the interrupted event at a live replica: it is a duplicate and starts nothing.
      await send(body, 1, others[1]);

      const [first, second] = topLevel(channel);
      await slack.waitFor(() => visibleText(first!).includes('interrupted'), 30_000);
      expect(visibleText(first!)).toContain(
        'My answer was interrupted before I could finish; please ask again.',
      );
      await slack.waitFor(() => visibleText(second!) === 'Answer to C4-Q2.', 30_000);

      await ask(channel, 'C4-Q3', { retry: false });
      const third = topLevel(channel)[2]!;
      await slack.waitFor(() => visibleText(third) === 'Answer to C4-Q3.', 30_000);
      expect(topLevel(channel)).toHaveLength(3);
      // Memory holds no trace of the interrupted question: only the turns that were answered.
      await vi.waitFor(
        async () =>
          expect(await turns(channel)).toEqual(['C4-Q2 → Answer to C4-Q2.', 'C4-Q3 → Answer to C4-Q3.']),
        { timeout: 10_000, interval: 50 },
      );
      const q3 = model.requests.find((r) => labelOf(r) === 'C4-Q3')!;
      expect(JSON.stringify(q3.body.messages)).toContain('Answer to C4-Q2.');
    }, 90_000);
  });
});
