import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ModelError } from '../../src/core/errors.js';
import { createOpenAIEmbedder } from '../../src/core/llm/openai-embedder.js';
import { createLogger } from '../../src/core/logger.js';
import { BASE_SCOPE, type KnowledgeFile } from '../../src/core/ports/knowledge-store.js';
import { fuseRankings, withEmbeddings } from '../../src/knowledge/embedded-knowledge.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { type FakeEmbeddings, startFakeEmbeddings } from '../fakes/embeddings-server.js';

const file = (scope: string, path: string, passages: number): KnowledgeFile => ({
  scope,
  path,
  size: 100,
  modifiedAt: 1,
  indexedAt: 1,
  passages,
});

describe('embeddings: passages found by meaning as well as by words', () => {
  let dir: string;
  let fake: FakeEmbeddings;
  let lines: string[];
  let clock = Date.UTC(2026, 11, 6, 12);
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'thinkthread-emb-'));
    fake = await startFakeEmbeddings();
    lines = [];
  });
  afterEach(async () => {
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const open = (model = 'nomic-embed-text', key = 'sk-embed-secret') => {
    const store = openSqliteStore(join(dir, 'kb.db'));
    const logger = createLogger({ level: 'info', secrets: [key], write: (l) => lines.push(l) });
    const embedder = createOpenAIEmbedder({
      model,
      baseURL: fake.url,
      apiKey: key,
      maxRetries: 0,
      timeoutMs: 5000,
    });
    return { store, knowledge: withEmbeddings(store, embedder, logger, () => clock) };
  };

  const handbook = [
    { heading: 'Rotation', text: 'On-call swaps need the manager’s approval two days ahead.' },
    { heading: 'Escalation', text: 'Page the team lead after fifteen minutes without an answer.' },
    { heading: 'Travel', text: 'Hotels are paid up to 150 EUR a night.' },
  ];

  it('finds a passage asked about in other words, which words alone miss', async () => {
    const { store, knowledge } = open();
    await knowledge.putKnowledgeFile(file(BASE_SCOPE, 'handbook.md', 3), handbook);
    await knowledge.embedded();
    const question = 'who okays rota trades';
    expect(await store.searchKnowledge([BASE_SCOPE], question, 3)).toEqual([]);
    const hits = await knowledge.searchKnowledge([BASE_SCOPE], question, 3);
    expect(hits[0]).toMatchObject({ path: 'handbook.md', heading: 'Rotation' });
    // Words still count: an exact phrase ranks first.
    expect((await knowledge.searchKnowledge([BASE_SCOPE], 'fifteen minutes', 1))[0]?.heading).toBe(
      'Escalation',
    );
    // The openai SDK asks for base64 vectors; every passage went in batches, the heading with the text.
    expect(fake.requests[0]!.input).toContain(
      'Rotation\nOn-call swaps need the manager’s approval two days ahead.',
    );
    knowledge.stop();
    await store.close();
  });

  it('never crosses scopes, and a changed file is searched by its new passages', async () => {
    const { store, knowledge } = open();
    await knowledge.putKnowledgeFile(file('slack:T1:C1', 'plan.md', 1), [
      { text: 'Weekend duty trades are okayed by Ann.' },
    ]);
    await knowledge.putKnowledgeFile(file(BASE_SCOPE, 'handbook.md', 3), handbook);
    await knowledge.embedded();
    const other = await knowledge.searchKnowledge([BASE_SCOPE, 'slack:T1:C2'], 'who okays weekend trades', 5);
    expect(other.map((h) => h.path)).not.toContain('plan.md');
    const here = await knowledge.searchKnowledge([BASE_SCOPE, 'slack:T1:C1'], 'who okays weekend trades', 5);
    expect(here[0]?.path).toBe('plan.md');

    await knowledge.putKnowledgeFile(file(BASE_SCOPE, 'handbook.md', 1), [
      { heading: 'Pay', text: 'Weekend shifts are compensated with 200 EUR.' },
    ]);
    await knowledge.embedded();
    const pay = await knowledge.searchKnowledge([BASE_SCOPE], 'salary for saturday duty', 5);
    expect(pay.map((h) => h.heading)).toEqual(['Pay']);
    knowledge.stop();
    await store.close();
  });

  it('searches by words when the embeddings server fails, says so once, and catches up later', async () => {
    const { store, knowledge } = open();
    fake.failNext(1, 401);
    await knowledge.putKnowledgeFile(file(BASE_SCOPE, 'handbook.md', 3), handbook);
    await knowledge.embedded();
    expect(lines.filter((l) => l.includes('could not make embeddings'))).toHaveLength(1);
    expect(lines.join('\n')).toContain('rejected the API key');
    expect(lines.join('\n')).not.toContain('sk-embed-secret');
    expect((await knowledge.searchKnowledge([BASE_SCOPE], 'fifteen minutes', 3))[0]?.heading).toBe(
      'Escalation',
    );
    expect(await store.passagesToEmbed('nomic-embed-text', 10)).toHaveLength(3);

    fake.failNext(1, 500);
    expect((await knowledge.searchKnowledge([BASE_SCOPE], 'fifteen minutes', 3))[0]?.heading).toBe(
      'Escalation',
    );
    expect(lines.some((l) => l.includes('could not search by meaning'))).toBe(true);
    // For a minute searches go by words without asking the server; then by meaning again.
    const asked = fake.requests.length;
    await knowledge.searchKnowledge([BASE_SCOPE], 'who okays rota trades', 1);
    expect(fake.requests.length).toBe(asked);
    clock += 61_000;

    // The next file put (or the retry a minute later) embeds what waited.
    await knowledge.putKnowledgeFile(file(BASE_SCOPE, 'more.md', 1), [
      { text: 'Laptops are replaced every three years.' },
    ]);
    await knowledge.embedded();
    expect(await store.passagesToEmbed('nomic-embed-text', 10)).toEqual([]);
    expect((await knowledge.searchKnowledge([BASE_SCOPE], 'who okays rota trades', 1))[0]?.heading).toBe(
      'Rotation',
    );
    knowledge.stop();
    await store.close();
  });

  it('embeds again what another model embedded, and refuses a garbled answer with a clear error', async () => {
    const first = open('nomic-embed-text');
    await first.knowledge.putKnowledgeFile(file(BASE_SCOPE, 'handbook.md', 3), handbook);
    await first.knowledge.embedded();
    first.knowledge.stop();
    await first.store.close();
    const before = fake.requests.length;
    const second = open('text-embedding-3-small');
    await second.knowledge.embedded();
    expect(fake.requests.slice(before).map((r) => r.model)).toEqual(['text-embedding-3-small']);
    expect(await second.store.passagesToEmbed('text-embedding-3-small', 10)).toEqual([]);
    second.knowledge.stop();
    await second.store.close();

    const garbled = await startFakeEmbeddings({ embed: () => [Number.NaN] });
    try {
      const embedder = createOpenAIEmbedder({
        model: 'm',
        baseURL: garbled.url,
        maxRetries: 0,
        timeoutMs: 5000,
      });
      await expect(embedder.embed(['x'])).rejects.toThrow(ModelError);
      await expect(embedder.embed(['x'])).rejects.toThrow(/without a usable vector/);
    } finally {
      await garbled.close();
    }
  });

  it('a passage the server refuses is found by words only; the rest are embedded, nothing asked twice', async () => {
    await fake.close();
    fake = await startFakeEmbeddings({ contextChars: 80 });
    const { store, knowledge } = open();
    const long = `Travel claims: ${'receipts are needed for every hotel night and every train ticket. '.repeat(3)}`;
    await knowledge.putKnowledgeFile(file(BASE_SCOPE, 'handbook.md', 4), [
      ...handbook,
      { heading: 'Claims', text: long },
    ]);
    await knowledge.embedded();
    expect(await store.passagesToEmbed('nomic-embed-text', 10)).toEqual([]);
    expect(lines.filter((l) => l.includes('refused some texts'))).toHaveLength(1);
    const requests = fake.requests.length;
    await knowledge.putKnowledgeFile(file(BASE_SCOPE, 'other.md', 1), [
      { text: 'Laptops every three years.' },
    ]);
    await knowledge.embedded();
    expect(fake.requests.slice(requests).flatMap((r) => r.input)).toEqual(['Laptops every three years.']);
    expect((await knowledge.searchKnowledge([BASE_SCOPE], 'who okays rota trades', 1))[0]?.heading).toBe(
      'Rotation',
    );
    expect((await knowledge.searchKnowledge([BASE_SCOPE], 'receipts train ticket', 1))[0]?.heading).toBe(
      'Claims',
    );
    knowledge.stop();
    await store.close();
  });

  it('a batch whose every text is too long for the server is marked, not retried forever', async () => {
    await fake.close();
    fake = await startFakeEmbeddings({ contextChars: 20 });
    const { store, knowledge } = open();
    await knowledge.putKnowledgeFile(file(BASE_SCOPE, 'handbook.md', 3), handbook);
    await knowledge.embedded();
    expect(await store.passagesToEmbed('nomic-embed-text', 10)).toEqual([]);
    expect((await knowledge.searchKnowledge([BASE_SCOPE], 'fifteen minutes', 1))[0]?.heading).toBe(
      'Escalation',
    );
    knowledge.stop();
    await store.close();
  });

  it('a setting the server refuses for every text (dimensions it does not take) marks nothing', async () => {
    const store = openSqliteStore(join(dir, 'kb.db'));
    const logger = createLogger({ level: 'info', secrets: [], write: (l) => lines.push(l) });
    const embedder = createOpenAIEmbedder({
      model: 'nomic-embed-text',
      baseURL: fake.url,
      dimensions: 256,
      maxRetries: 0,
      timeoutMs: 5000,
    });
    const knowledge = withEmbeddings(store, embedder, logger);
    await knowledge.putKnowledgeFile(file(BASE_SCOPE, 'handbook.md', 3), handbook);
    await knowledge.embedded();
    expect(await store.passagesToEmbed('nomic-embed-text', 10)).toHaveLength(3);
    expect(lines.filter((l) => l.includes('could not make embeddings'))).toHaveLength(1);
    expect(lines.join('\n')).toContain('HTTP 400');
    knowledge.stop();
    await store.close();
  });

  it('asks text-embedding-3 models for EMBEDDINGS_DIMENSIONS', async () => {
    const embedder = createOpenAIEmbedder({
      model: 'text-embedding-3-small',
      baseURL: fake.url,
      dimensions: 16,
      maxRetries: 0,
      timeoutMs: 5000,
    });
    const [v] = await embedder.embed(['hello']);
    expect(v).toHaveLength(16);
    // Kept under the size too: another EMBEDDINGS_DIMENSIONS is another model, embedded again.
    expect(embedder.model).toBe('text-embedding-3-small@16');
  });
});

describe('reciprocal-rank fusion', () => {
  const ref = (ordinal: number) => ({ scope: 'base', path: 'a.md', ordinal });
  it('puts what both rankings found above what one found first', () => {
    const fused = fuseRankings([ref(1), ref(2), ref(3)], [ref(4), ref(3), ref(5)]);
    expect(fused.map((r) => r.ordinal)).toEqual([3, 1, 4, 2, 5]);
  });
});
