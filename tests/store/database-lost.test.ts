import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StorageLostError } from '../../src/core/errors.js';
import type { Store } from '../../src/core/ports/store.js';
import { createStore } from '../../src/store/create-store.js';
import { watchStore } from '../../src/store/store-watchdog.js';
import { type FakeOpenAI, startFakeOpenAI } from '../fakes/openai-server.js';
import { freePort } from '../helpers/free-port.js';
import { type BotProcess, spawnBot } from '../helpers/spawn-bot.js';
import { startTestCore, type TestCore } from '../helpers/test-core.js';
import { waitForHttp } from '../helpers/wait-for-http.js';
import { dropSchema, freshSchema, postgresSuite, withSchema } from './postgres-test-db.js';

const TURN = { author: 'ana', question: 'q', answer: 'a', tokens: 3 };

/** Removes a SQLite database and its WAL files, as an operator's `rm` would. */
const removeDatabase = (path: string) => {
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
};

/** Starts the bot as `npm start` does, with health checks, and waits until it says it is ready. */
async function startReadyBot(
  model: FakeOpenAI,
  databaseUrl: string,
): Promise<{ bot: BotProcess; port: number }> {
  const port = await freePort();
  const bot = spawnBot({ OPENAI_BASE_URL: model.url, DATABASE_URL: databaseUrl, HEALTH_PORT: String(port) });
  await waitForHttp(`http://127.0.0.1:${port}/readyz`, (status) => status === 200, {
    exited: () => bot.child.exitCode !== null,
  });
  return { bot, port };
}

/** Expects the bot to exit 1 after one clear line on stderr matching `said`, and no stack trace. */
async function expectStoppedSaying(bot: BotProcess, said: RegExp) {
  expect(await bot.exited).toBe(1);
  const lines = bot
    .stderr()
    .split('\n')
    .filter((l) => l.startsWith('thinkthread:'));
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(said);
  expect(bot.stderr()).not.toMatch(/\n\s+at /);
}

describe('a SQLite database deleted while the bot runs', () => {
  let store: Store | undefined;
  let test: TestCore | undefined;
  let model: FakeOpenAI | undefined;
  let bot: BotProcess | undefined;
  afterEach(async () => {
    await store?.close();
    await test?.close();
    if (bot?.child.exitCode === null) bot.child.kill('SIGKILL');
    await model?.close();
    store = test = model = bot = undefined;
  });

  it('fails every later call as lost instead of writing into the deleted file, and the watchdog says so', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'thinkthread-lost-')), 'bot.db');
    store = await createStore(`sqlite:${path}`);
    await store.appendTurn('c', TURN);
    removeDatabase(path);
    await expect(store.ping()).rejects.toBeInstanceOf(StorageLostError);
    await expect(store.appendTurn('c', TURN)).rejects.toThrow(`The database file ${path} was deleted`);
    const lost = await new Promise<StorageLostError>((resolve) => watchStore(store!, resolve, 1));
    expect(lost.message).toContain('must restart');
  });

  it('answers a question with the storage message, not a stack trace', async () => {
    test = await startTestCore();
    removeDatabase(test.config.DATABASE_URL.slice('sqlite:'.length));
    const events: string[] = [];
    const outcome = await test.core.assistant.ask(
      { key: 'console:local', author: 'ana', text: 'hi' },
      (e) => {
        if (e.type === 'error') events.push(e.message);
      },
    );
    expect(outcome).toMatchObject({ status: 'failed', code: 'storage' });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatch(
      /^(Could not read this channel’s \w+|Storage is unavailable right now); try again shortly\.$/,
    );
    expect(test.fake.requests).toHaveLength(0);
  });

  it('stops the bot (exit 1, one clear line) so the orchestrator restarts it', async () => {
    model = await startFakeOpenAI();
    const path = join(mkdtempSync(join(tmpdir(), 'thinkthread-lost-')), 'bot.db');
    ({ bot } = await startReadyBot(model, `sqlite:${path}`));
    removeDatabase(path);
    await expectStoppedSaying(bot, /The database file .*bot\.db was deleted while the bot ran/);
  });
});

postgresSuite('a Postgres schema dropped while the bot runs', (databaseUrl) => {
  describe('a Postgres schema dropped while the bot runs', () => {
    let store: Store | undefined;
    let model: FakeOpenAI | undefined;
    let bot: BotProcess | undefined;
    const schemas: string[] = [];
    afterEach(async () => {
      await store?.close();
      if (bot?.child.exitCode === null) bot.child.kill('SIGKILL');
      await model?.close();
      store = model = bot = undefined;
      for (const schema of schemas.splice(0)) await dropSchema(databaseUrl, schema);
    });

    it('fails the readiness ping and every call as lost', async () => {
      const schema = freshSchema();
      schemas.push(schema);
      store = await createStore(withSchema(databaseUrl, schema));
      await store.appendTurn('c', TURN);
      await dropSchema(databaseUrl, schema);
      await expect(store.ping()).rejects.toBeInstanceOf(StorageLostError);
      await expect(store.appendTurn('c', TURN)).rejects.toThrow(
        /tables .* are gone \(was the schema dropped\?\)/,
      );
    });

    it('stops the bot (exit 1, one clear line) so a restart creates the schema again', async () => {
      const schema = freshSchema();
      schemas.push(schema);
      model = await startFakeOpenAI();
      ({ bot } = await startReadyBot(model, withSchema(databaseUrl, schema)));
      await dropSchema(databaseUrl, schema);
      await expectStoppedSaying(bot, /tables of the .* are gone \(was the schema dropped\?\)/);
      expect(bot.stderr()).not.toContain('password');
    });
  });
});
