import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/parse.js';
import { createOpenAIEmbedder } from '../../src/core/llm/openai-embedder.js';
import { createLogger } from '../../src/core/logger.js';
import type { Store } from '../../src/core/ports/store.js';
import { withRecallEmbeddings } from '../../src/knowledge/embedded-recall.js';
import { recallArchive } from '../../src/knowledge/start-knowledge.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { type FakeEmbeddings, startFakeEmbeddings } from '../fakes/embeddings-server.js';

describe('recall by meaning as well as by words (EMBEDDINGS_MODEL)', () => {
  let dir: string;
  let fake: FakeEmbeddings;
  let store: Store;
  let lines: string[];
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'thinkthread-recall-emb-'));
    fake = await startFakeEmbeddings();
    store = openSqliteStore(join(dir, 'db.sqlite'));
    lines = [];
  });
  afterEach(async () => {
    await store.close();
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const recall = () =>
    withRecallEmbeddings(
      store,
      createOpenAIEmbedder({ model: 'nomic-embed-text', baseURL: fake.url, maxRetries: 0, timeoutMs: 5000 }),
      createLogger({ level: 'info', secrets: [], write: (l) => lines.push(l) }),
    );
  const say = (key: string, author: string, question: string, answer: string) =>
    store.appendTurn(key, { author, question, answer, tokens: 5 });

  it('finds a turn asked about in other words, only in its conversation, within the filters', async () => {
    const owns = await say('k', 'Ann', 'who runs the billing job now?', 'Marisol owns the billing job.');
    await say('k', 'Bob', 'lunch?', 'Pizza at noon.');
    await say('k', 'Cy', 'release date?', 'The release is on Friday.');
    await say('other', 'Eve', 'who runs payroll?', 'Tom owns payroll.');
    const archive = recall();
    await archive.embedded();
    const question = { key: 'k', query: 'responsible maintainer', limit: 3 };
    expect(await store.searchArchive(question)).toEqual([]);
    const hits = await archive.searchArchive(question);
    expect(hits[0]?.id).toBe(owns.id);
    expect(hits.every((h) => h.key === 'k')).toBe(true);
    expect(await archive.searchArchive({ ...question, speaker: 'Bob' })).not.toContainEqual(
      expect.objectContaining({ id: owns.id }),
    );
    expect(await archive.searchArchive({ ...question, from: Date.now() + 60_000 })).toEqual([]);
    archive.stop();
  });

  it('recalls by words alone when the embeddings server fails, and says so', async () => {
    await say('k', 'Ann', 'the ECONNRESET error again', 'Retry with backoff.');
    const archive = recall();
    await archive.embedded();
    fake.failNext(1, 503);
    const hits = await archive.searchArchive({ key: 'k', query: 'econnreset', limit: 3 });
    expect(hits.map((h) => h.answer)).toEqual(['Retry with backoff.']);
    expect(lines.some((l) => l.includes('could not search by meaning'))).toBe(true);
    archive.stop();
  });

  it('embeds turns archived later, and the other methods are the store’s', async () => {
    const archive = recall();
    await archive.embedded();
    await say('k', 'Ann', 'who does the weekend pager?', 'Lee has weekend duty.');
    await archive.fillNow();
    expect(await store.turnsToEmbed('nomic-embed-text', 5)).toEqual([]);
    expect((await archive.searchArchive({ key: 'k', query: 'saturday shift', limit: 1 }))[0]?.answer).toBe(
      'Lee has weekend duty.',
    );
    expect((await archive.archivedTurns('k', 0, 10)).length).toBe(1);
    archive.stop();
  });

  it('RECALL_EMBEDDINGS=false keeps the archive to words (nothing sent), EMBEDDINGS_MODEL unset too', async () => {
    const env = {
      OPENAI_BASE_URL: fake.url,
      EMBEDDINGS_MODEL: 'nomic-embed-text',
      DATABASE_URL: 'sqlite::memory:',
    };
    const logger = createLogger({ level: 'silent', secrets: [] });
    expect(recallArchive(parseConfig({ ...env, RECALL_EMBEDDINGS: 'false' }), store, logger)).toBeUndefined();
    expect(recallArchive(parseConfig({ ...env, EMBEDDINGS_MODEL: '' }), store, logger)).toBeUndefined();
    const on = recallArchive(parseConfig(env), store, logger);
    expect(on).toBeDefined();
    on?.stop();
  });
});
