import type { Embedder } from '../core/llm/embedder.js';
import { EMBED_BATCH } from '../core/llm/openai-embedder.js';
import type { Logger } from '../core/logger.js';
import type {
  ArchivedTurn,
  ArchiveEmbeddingStore,
  ArchiveSearch,
  ArchiveStore,
} from '../core/ports/archive-store.js';
import type { NotesStore } from '../core/ports/notes-store.js';
import { embeddingFill, embedEach } from './embedding-fill.js';
import { queryEmbedding } from './query-embedding.js';
import { fuseByRank } from './rank-fusion.js';
import { scan, TopK, toChunk, unit, type VectorChunk } from './vector-chunk.js';

/** Embeddings read per query when a conversation's vectors are loaded. */
const LOAD_BATCH = 5000;
/** A conversation's vectors are loaded whole again this often, so forgotten and pruned turns leave memory. */
const RELOAD_MS = 10 * 60_000;
/** New turns are looked for this often (recall is for older turns; the newest are still verbatim). */
const FILL_EVERY_MS = 30_000;

interface Conversation {
  lastId: number;
  loadedAt: number;
  parts: { ids: Float64Array; chunk: VectorChunk }[];
}

/** What `recall` searches and where the archive's embeddings are kept. */
export type RecallStore = ArchiveStore & NotesStore & ArchiveEmbeddingStore;

/** The archive searched by words and meaning. */
export type EmbeddedRecall = RecallStore & {
  /** Resolves when no archived turn waits for its embedding (or embedding failed, to be retried). */
  embedded(): Promise<void>;
  /** Embeds what waits now rather than at the next poll; resolves when done. */
  fillNow(): Promise<void>;
  stop(): void;
};

/** Whether a turn passes a search's time and speaker filters, as the stores apply them. */
function passes(turn: ArchivedTurn, s: ArchiveSearch): boolean {
  if (s.from !== undefined && turn.createdAt < s.from) return false;
  if (s.to !== undefined && turn.createdAt >= s.to) return false;
  const speaker = s.speaker?.trim();
  if (!speaker) return true;
  return turn.author.toLowerCase().includes(speaker.toLowerCase()) || turn.principal === speaker;
}

/**
 * The archive with EMBEDDINGS_MODEL: archived turns are embedded in the background (all that wait at start,
 * new ones every 30 s), and `recall` fuses the full-text ranking with the nearest turns by meaning, by
 * reciprocal rank, with the same time and speaker filters. Vectors of a conversation are loaded into memory
 * on its first recall (one byte per dimension per turn) and then only its new turns.
 */
export function withRecallEmbeddings(
  store: RecallStore,
  embedder: Embedder,
  logger: Logger,
  now: () => number = Date.now,
): EmbeddedRecall {
  const conversations = new Map<string, Conversation>();
  const filler = embeddingFill(
    async () => {
      const waiting = await store.turnsToEmbed(embedder.model, EMBED_BATCH);
      if (waiting.length === 0) return 0;
      const vectors = await embedEach(
        embedder,
        waiting.map((t) => t.text),
        logger,
      );
      await store.putTurnEmbeddings(
        embedder.model,
        waiting.map((t, i) => ({ id: t.id, embedding: vectors[i]! })),
      );
      return waiting.length;
    },
    logger,
    'recall',
    FILL_EVERY_MS,
  );

  const loading = new Map<string, Promise<Conversation>>();

  async function load(key: string): Promise<Conversation> {
    // Stale conversations are dropped whole: reloaded when asked again, forgotten turns gone from memory.
    for (const [other, c] of conversations) if (now() - c.loadedAt > RELOAD_MS) conversations.delete(other);
    let conversation = conversations.get(key);
    if (!conversation) {
      conversation = { lastId: 0, loadedAt: now(), parts: [] };
      conversations.set(key, conversation);
    }
    for (;;) {
      const rows = await store.turnEmbeddings(key, embedder.model, conversation.lastId, LOAD_BATCH);
      if (rows.length === 0) break;
      const { chunk, kept } = toChunk(rows.map((r) => r.embedding));
      conversation.parts.push({ ids: Float64Array.from(kept.map((i) => rows[i]!.id)), chunk });
      conversation.lastId = rows.at(-1)!.id;
      if (rows.length < LOAD_BATCH) break;
    }
    return conversation;
  }

  /** A conversation's vectors with its newest turns; concurrent recalls share one load. */
  function vectorsOf(key: string): Promise<Conversation> {
    let pending = loading.get(key);
    if (!pending) {
      pending = load(key).finally(() => loading.delete(key));
      loading.set(key, pending);
    }
    return pending;
  }

  const embedQuery = queryEmbedding(embedder, logger, 'recall', now);
  async function nearest(s: ArchiveSearch, pool: number): Promise<ArchivedTurn[]> {
    const vector = await embedQuery(s.query);
    if (!vector) return [];
    const q = unit(vector);
    // More than asked: the time and speaker filters apply to the turns found.
    const best = new TopK<number>(pool * 4);
    for (const part of (await vectorsOf(s.key)).parts) scan(part.chunk, q, best, (i) => part.ids[i]!);
    const ids = best.items.map((b) => b.item);
    const turns = new Map((await store.archivedTurnsByIds(s.key, ids)).map((t) => [t.id, t]));
    return ids
      .flatMap((id) => turns.get(id) ?? [])
      .filter((t) => passes(t, s))
      .slice(0, pool);
  }

  void filler.fill();
  return {
    ...store,
    async searchArchive(s) {
      if (s.limit < 1) return [];
      const pool = Math.max(s.limit * 4, 20);
      const [words, meaning] = await Promise.all([
        store.searchArchive({ ...s, limit: pool }),
        nearest(s, pool),
      ]);
      // Among equals the newest first, as the stores rank.
      return fuseByRank(
        [words, meaning],
        (t) => t.id,
        (a, b) => b.createdAt - a.createdAt,
      ).slice(0, s.limit);
    },
    embedded: () => filler.idle(),
    fillNow: async () => {
      await filler.fill();
      await filler.idle();
    },
    stop: () => filler.stop(),
  };
}
