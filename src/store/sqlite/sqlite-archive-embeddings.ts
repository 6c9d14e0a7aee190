import type Database from 'better-sqlite3';
import type { ArchivedTurn, ArchiveEmbeddingStore, TurnToEmbed } from '../../core/ports/archive-store.js';
import { TURN_TEXT_SQL } from '../archive-embedding-rows.js';
import { embeddingBytes, embeddingOf } from '../knowledge-rows.js';
import { sqliteRunner } from './sqlite-run.js';
import type { FailWith } from './sqlite-usage.js';
import { waitingFirst } from './waiting-first.js';

/** The archive's embeddings in SQLite: kept in each turn's row (migration 19). */
export function sqliteArchiveEmbeddings(db: Database.Database, fail: FailWith): ArchiveEmbeddingStore {
  const run = sqliteRunner(fail);
  const toEmbed = waitingFirst(
    db.prepare<[number], TurnToEmbed>(
      `SELECT id, key, ${TURN_TEXT_SQL} AS text FROM archive WHERE embedding_model IS NULL ORDER BY id LIMIT ?`,
    ),
    db.prepare<[string, number], TurnToEmbed>(
      `SELECT id, key, ${TURN_TEXT_SQL} AS text FROM archive
        WHERE embedding_model IS NOT NULL AND embedding_model <> ? ORDER BY id LIMIT ?`,
    ),
  );
  const set = db.prepare<[Buffer, string, number]>(
    'UPDATE archive SET embedding = ?, embedding_model = ? WHERE id = ?',
  );
  const put = db.transaction((model: string, items: readonly { id: number; embedding: Float32Array }[]) => {
    for (const e of items) set.run(embeddingBytes(e.embedding), model, e.id);
  });
  const embeddings = db.prepare<[string, string, number, number], { id: number; embedding: Buffer }>(
    `SELECT id, embedding FROM archive WHERE key = ? AND embedding_model = ? AND id > ? ORDER BY id LIMIT ?`,
  );
  const turn = db.prepare<[number, string], ArchivedTurn>(
    `SELECT id, key, author, principal, question, answer, created_at AS createdAt FROM archive
      WHERE id = ? AND key = ?`,
  );
  return {
    turnsToEmbed: (model, limit) => run('find turns to embed', () => toEmbed(model, limit)),
    putTurnEmbeddings: (model, items) => run('keep embeddings', () => put(model, items)),
    turnEmbeddings: (key, model, afterId, limit) =>
      run('read embeddings', () =>
        embeddings
          .all(key, model, afterId, limit)
          .map((r) => ({ id: r.id, embedding: embeddingOf(r.embedding) })),
      ),
    archivedTurnsByIds: (key, ids) =>
      run('read the archive', () => ids.flatMap((id) => turn.get(id, key) ?? [])),
  };
}
