import type { ArchivedTurn, ArchiveEmbeddingStore, TurnToEmbed } from '../../core/ports/archive-store.js';
import { TURN_TEXT_SQL } from '../archive-embedding-rows.js';
import { embeddingBytes, embeddingOf } from '../knowledge-rows.js';
import type { PostgresDb } from './postgres-db.js';
import { waitingFirst } from './postgres-waiting-first.js';

/** The archive's embeddings in Postgres: kept in each turn's row as bytes (migration 19). */
export function postgresArchiveEmbeddings(db: PostgresDb): ArchiveEmbeddingStore {
  const waiting = waitingFirst();
  return {
    async turnsToEmbed(model, limit) {
      return waiting(
        (sql, params) => db.query<TurnToEmbed>('find turns to embed', sql, params),
        `SELECT id, key, ${TURN_TEXT_SQL} AS text FROM archive WHERE {waiting} ORDER BY id LIMIT $1`,
        model,
        limit,
      );
    },
    async putTurnEmbeddings(model, items) {
      if (items.length === 0) return;
      await db.query(
        'keep embeddings',
        `UPDATE archive a SET embedding = r.embedding, embedding_model = $3
           FROM unnest($1::bigint[], $2::bytea[]) AS r(id, embedding) WHERE a.id = r.id`,
        [items.map((e) => e.id), items.map((e) => embeddingBytes(e.embedding)), model],
      );
    },
    async turnEmbeddings(key, model, afterId, limit) {
      const { rows } = await db.query<{ id: number; embedding: Buffer }>(
        'read embeddings',
        `SELECT id, embedding FROM archive
          WHERE key = $1 AND embedding_model = $2 AND id > $3 ORDER BY id LIMIT $4`,
        [key, model, afterId, limit],
      );
      return rows.map((r) => ({ id: r.id, embedding: embeddingOf(r.embedding) }));
    },
    async archivedTurnsByIds(key, ids) {
      if (ids.length === 0) return [];
      const { rows } = await db.query<ArchivedTurn>(
        'read the archive',
        `SELECT id, key, author, principal, question, answer, created_at AS "createdAt"
           FROM archive WHERE key = $1 AND id = ANY($2::bigint[])`,
        [key, [...ids]],
      );
      return rows;
    },
  };
}
