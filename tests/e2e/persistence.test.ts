import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { chatResponder, isSummaryRequest, shownText } from '../core/memory/fixture.js';
import { type FakeOpenAI, type Responder, startFakeOpenAI } from '../fakes/openai-server.js';
import { spawnBot } from '../helpers/spawn-bot.js';

/** Waiting for background work (compression, a spawned bot) has no deadline worth asserting. */
const WAIT = { timeout: 15_000, interval: 10 };

const root = resolve(import.meta.dirname, '../..');

// Each test starts bot processes; start-up under a loaded machine can take seconds.
const SPAWN_TIMEOUT_MS = 60_000;

describe('memory across process crashes', { timeout: SPAWN_TIMEOUT_MS }, () => {
  let fake: FakeOpenAI;
  let dir: string;
  let respond: Responder;

  beforeEach(async () => {
    respond = chatResponder;
    fake = await startFakeOpenAI({ fallback: (r) => respond(r) });
    dir = mkdtempSync(join(tmpdir(), 'thinkthread-persist-'));
  });
  afterEach(async () => {
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  });

  // DATABASE_URL is left at its default, sqlite:./data/thinkthread.db, relative to the bot's folder.
  const dbPath = () => join(dir, 'data', 'thinkthread.db');
  const env = (extra: Record<string, string> = {}) => ({
    OPENAI_BASE_URL: fake.url,
    LLM_MAX_RETRIES: '0',
    LOG_LEVEL: 'silent',
    ...extra,
  });
  const agentRequests = () => fake.requests.filter((r) => !isSummaryRequest(r));

  it('remembers across kill -9 and a restart; the run interrupted by the kill leaves no turn', async () => {
    respond = (r) => (shownText(r).includes('never answered') ? { hang: true } : chatResponder(r));
    const first = spawnBot(env(), { cwd: dir });
    first.child.stdin!.write('Remember: my project is called Atlas.\n/memory\n');
    await first.waitFor('Turns kept verbatim: 1');
    first.child.stdin!.write('This question is never answered.\n');
    await vi.waitFor(() => expect(agentRequests()).toHaveLength(2), WAIT);
    first.child.kill('SIGKILL');
    await first.exited;

    const second = spawnBot(env(), { cwd: dir });
    second.child.stdin!.end('What is my project called?\n');
    expect(await second.exited).toBe(0);
    const shown = agentRequests()
      .at(-1)!
      .body.messages.map((m) => String(m.content));
    expect(shown.some((c) => c.endsWith('] Remember: my project is called Atlas.'))).toBe(true);
    expect(shown.some((c) => c.includes('ok: ') && c.includes('Atlas'))).toBe(true);
    expect(shown.join('\n')).not.toContain('never answered');
    expect(shown.at(-1)).toMatch(/\] What is my project called\?$/);
  });

  it('refuses to start on a corrupt or unwritable database, naming the path, without a stack trace', async () => {
    const corrupt = join(dir, 'corrupt.db');
    writeFileSync(corrupt, 'not a database '.repeat(300));
    const blocked = join(dir, 'a-file', 'bot.db');
    writeFileSync(join(dir, 'a-file'), 'a file where a folder should be');
    for (const path of [corrupt, blocked]) {
      const bot = spawnBot(env({ DATABASE_URL: `sqlite:${path}` }), { cwd: dir });
      bot.child.stdin!.end();
      expect(await bot.exited).not.toBe(0);
      expect(bot.stderr()).toContain(path);
      expect(bot.stderr()).not.toMatch(/\n\s+at /);
    }
  });

  it('kill -9 during a compression keeps every turn; the next start finishes it, and a clean exit waits for it', async () => {
    const budget = { MEMORY_MAX_TOKENS: '60', MEMORY_KEEP_TURNS: '1' };
    respond = (r) => (isSummaryRequest(r) ? { hang: true } : chatResponder(r));
    const first = spawnBot(env(budget), { cwd: dir });
    first.child.stdin!.write(
      'Remember: the launch code is 4711.\nSecond question here.\nThird question here.\n/memory\n',
    );
    await first.waitFor('Turns kept verbatim: 3');
    await vi.waitFor(() => expect(fake.requests.some(isSummaryRequest)).toBe(true), WAIT);
    first.child.kill('SIGKILL');
    await first.exited;

    const store = openSqliteStore(dbPath());
    const afterCrash = await store.load('console:local');
    await store.close();
    expect(afterCrash.summary).toBeNull();
    expect(afterCrash.summarizedTurns).toBe(0);
    expect(afterCrash.turns.map((t) => t.question)).toEqual([
      'Remember: the launch code is 4711.',
      'Second question here.',
      'Third question here.',
    ]);

    respond = chatResponder;
    const second = spawnBot(env(budget), { cwd: dir });
    second.child.stdin!.end('Fourth question.\n');
    expect(await second.exited).toBe(0);
    const reopened = openSqliteStore(dbPath());
    const final = await reopened.load('console:local');
    await reopened.close();
    expect(final.summarizedTurns + final.turns.length).toBe(4);
    expect(final.summarizedTurns).toBeGreaterThan(0);
    expect(final.summary?.text).toContain('the launch code is 4711');
  });

  it('kill -9 at arbitrary moments of busy channels never leaves a half turn or a half compression', async () => {
    const keys = ['a', 'b', 'c'];
    const path = join(dir, 'stress.db');
    // Per key, how many turns each earlier run committed.
    const committed = new Map<string, number[]>(keys.map((k) => [k, []]));
    const factsOf = (key: string, run: number, count: number) =>
      Array.from({ length: count }, (_, i) => `${key}-${run}-${i + 1}`);
    for (let run = 1; run <= 3; run++) {
      const acked = await runWorkerUntilKilled(run, keys, 20 + run * 17, {
        OPENAI_BASE_URL: fake.url,
        DATABASE_URL: `sqlite:${path}`,
        PROMPTS_DIR: join(root, 'prompts'),
        MEMORY_MAX_TOKENS: '60',
        MEMORY_KEEP_TURNS: '1',
        MEMORY_SUMMARY_MAX_TOKENS: '100000',
        LLM_MAX_RETRIES: '0',
        LOG_LEVEL: 'silent',
      });
      const store = openSqliteStore(path);
      for (const key of keys) {
        const snapshot = await store.load(key);
        // The echo summariser writes one "- [w] Remember fact …" line per folded turn, in order.
        const summarised = (snapshot.summary?.text ?? '').split('\n').filter((l) => l.startsWith('- '));
        expect(summarised).toHaveLength(snapshot.summarizedTurns);
        const facts = [...summarised, ...snapshot.turns.map((t) => t.question)].map(
          (text) => /fact (\S+)\./.exec(text)?.[1],
        );
        const earlier = committed.get(key)!.flatMap((count, r) => factsOf(key, r + 1, count));
        expect(facts.slice(0, earlier.length)).toEqual(earlier);
        const current = facts.slice(earlier.length);
        // Every acknowledged turn is there; the one in flight at the kill is either whole or absent.
        const ackedHere = acked.get(key) ?? 0;
        expect([ackedHere, ackedHere + 1]).toContain(current.length);
        expect(current).toEqual(factsOf(key, run, current.length));
        committed.get(key)!.push(current.length);
      }
      await store.close();
      const raw = new Database(path, { readonly: true });
      expect(raw.pragma('integrity_check', { simple: true })).toBe('ok');
      raw.close();
    }
    expect(fake.requests.filter(isSummaryRequest).length).toBeGreaterThan(3);
  });
});

/** Starts tests/e2e/memory-worker.ts, SIGKILLs it after `acks` acknowledged turns in all; returns acks per key. */
async function runWorkerUntilKilled(
  run: number,
  keys: string[],
  acks: number,
  env: Record<string, string>,
): Promise<Map<string, number>> {
  const tsx = pathToFileURL(join(root, 'node_modules/tsx/dist/loader.mjs')).href;
  const child = spawn(process.execPath, ['--import', tsx, join(root, 'tests/e2e/memory-worker.ts')], {
    env: { PATH: process.env.PATH ?? '', ...env, WORKER_RUN: String(run), WORKER_KEYS: keys.join(',') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const now = new Map<string, number>();
  let total = 0;
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const exited = new Promise<void>((done) => child.on('exit', () => done()));
  await new Promise<void>((done, fail) => {
    let buffered = '';
    child.stdout.on('data', (d: Buffer) => {
      buffered += d.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        const [, key, n] = line.split(' ');
        if (key && n) now.set(key, Number(n));
        if (++total === acks) {
          child.kill('SIGKILL');
          done();
        }
      }
    });
    void exited.then(() => fail(new Error(`worker exited early:\n${stderr}`)));
  });
  await exited;
  return now;
}
