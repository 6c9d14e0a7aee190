import { afterAll, describe, expect, it, vi } from 'vitest';
import { type FakeOpenAI, type RecordedRequest, startFakeOpenAI } from '../fakes/openai-server.js';
import {
  eventCallback,
  type FakeSlack,
  sendSigned,
  startFakeSlack,
  visibleText,
} from '../fakes/slack-server.js';
import { freePort } from '../helpers/free-port.js';
import { type BotProcess, spawnBot } from '../helpers/spawn-bot.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';
import { waitForHttp } from '../helpers/wait-for-http.js';
import { mention } from '../platforms/slack/slack-harness.js';
import { asAdmin, dropSchema, freshSchema, postgresSuite, withSchema } from '../store/postgres-test-db.js';

const SIGNING_SECRET = 'lost-signing-secret-123456';

const labelOf = (request: RecordedRequest) =>
  /Q\d/.exec(JSON.stringify(request.body.messages.filter((m) => m.role === 'user').at(-1)?.content))?.[0];

postgresSuite('Postgres lost while running', (databaseUrl) => {
  describe('Postgres lost while running', () => {
    const schema = freshSchema();
    let proxy: TcpProxy;
    let slack: FakeSlack;
    let model: FakeOpenAI;
    let bot: BotProcess | undefined;

    afterAll(async () => {
      if (bot && bot.child.exitCode === null) bot.child.kill('SIGKILL');
      await bot?.exited;
      await model?.close();
      await slack?.close();
      await proxy?.close();
      await dropSchema(databaseUrl, schema);
    });

    it('answers "storage unavailable" while the database is gone, writes nothing, and recovers by itself', async () => {
      const direct = new URL(databaseUrl);
      proxy = await startTcpProxy(direct.hostname, Number(direct.port || 5432));
      const viaProxy = new URL(withSchema(databaseUrl, schema));
      viaProxy.host = `127.0.0.1:${proxy.port}`;
      slack = await startFakeSlack({ users: { UALICE: { name: 'alice', display_name: 'Alice' } } });
      model = await startFakeOpenAI({ fallback: (r) => ({ content: `Answer to ${labelOf(r)}.` }) });
      const port = await freePort();
      const healthPort = await freePort();
      bot = spawnBot({
        HEALTH_PORT: String(healthPort),
        OPENAI_BASE_URL: model.url,
        DATABASE_URL: viaProxy.toString(),
        SLACK_BOT_TOKEN: 'xoxb-lost-secret-123456',
        SLACK_SIGNING_SECRET: SIGNING_SECRET,
        SLACK_API_URL: slack.apiUrl,
        PORT: String(port),
        STREAM_EDIT_INTERVAL_MS: '10',
      });
      const base = `http://127.0.0.1:${port}`;
      await waitForHttp(`${base}/readyz`, (status) => status === 200, {
        exited: () => bot!.child.exitCode !== null,
        timeoutMs: 60_000,
      });
      const ask = async (label: string) => {
        const res = await sendSigned(
          `${base}/slack/events`,
          { json: eventCallback(mention(`${label} please`, { channel: 'C1' })) },
          { signingSecret: SIGNING_SECRET },
        );
        expect(res.status).toBe(200);
      };
      const answered = (label: string) =>
        slack.waitFor(() => slack.messages.find((m) => visibleText(m) === `Answer to ${label}.`), 30_000);

      await ask('Q1');
      await answered('Q1');
      // The turn is stored just after the answer shows; only then is the database taken away.
      await vi.waitFor(
        async () => {
          const stored = await asAdmin(databaseUrl, (c) => c.query(`SELECT 1 FROM "${schema}".turns`));
          expect(stored.rowCount).toBe(1);
        },
        { timeout: 10_000, interval: 50 },
      );

      proxy.cut();
      await ask('Q2');
      const reply = await slack.waitFor(
        () => slack.ephemerals.find((e) => /Storage is unavailable/.test(e.text)),
        30_000,
      );
      expect(reply.text).toBe('Storage is unavailable right now; try again shortly.');
      // Operators read why on HEALTH_PORT; the public PORT says only that it is not ready.
      const notReady = await waitForHttp(
        `http://127.0.0.1:${healthPort}/readyz`,
        (status) => status === 503,
        {
          timeoutMs: 30_000,
        },
      );
      expect(notReady.body).toContain('store');
      const publicNotReady = await waitForHttp(`${base}/readyz`, (status) => status === 503, {
        timeoutMs: 30_000,
      });
      expect(publicNotReady.body).not.toContain('store');

      proxy.restore();
      await waitForHttp(`${base}/readyz`, (status) => status === 200, { timeoutMs: 30_000 });
      await ask('Q3');
      await answered('Q3');
      expect(model.requests.map(labelOf)).toEqual(['Q1', 'Q3']);
      // Q3's turn is stored just after its answer shows; Q2 left nothing behind.
      await vi.waitFor(
        async () => {
          const turns = await asAdmin(databaseUrl, (c) =>
            c.query<{ question: string }>(`SELECT question FROM "${schema}".turns ORDER BY id`),
          );
          expect(turns.rows.map((r) => /Q\d/.exec(r.question)?.[0])).toEqual(['Q1', 'Q3']);
        },
        { timeout: 10_000, interval: 50 },
      );
    }, 120_000);
  });
});
