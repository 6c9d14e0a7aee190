import type { KnowledgeStore } from '../../core/ports/knowledge-store.js';
import {
  filledUp,
  type KeptEmbedding,
  KNOWLEDGE_FILE_COLUMNS,
  KNOWLEDGE_HIT_COLUMNS,
  type KnowledgeFileRow,
  type KnowledgeHitRow,
  keptEmbeddings,
  knowledgeFileOf,
  knowledgeFileValues,
  knowledgeHitOf,
  passageKey,
} from '../knowledge-rows.js';
import { tsTerms } from './postgres-archive.js';
import type { PostgresDb } from './postgres-db.js';
import { postgresEmbeddings } from './postgres-embeddings.js';
import { lexemeNarrowing } from './postgres-narrowing.js';

/** Rows written per INSERT when a document's passages are stored. */
const BATCH = 200;

/** Matches a search ranks at most: past this many, the first ones are ranked (see searchKnowledge). */
const CANDIDATES = 4000;

/**
 * The knowledge base in Postgres: passages searched by their tsvector (GIN), ranked by ts_rank_cd. A search
 * matches the passages holding its rare terms (by the lexeme statistics, or counted before the first
 * ANALYZE), ranks them by all of its terms, and ranks at most CANDIDATES matches: ranking every passage that
 * holds a common word is what took 300 ms at 100,000 passages. When the rare terms find fewer passages than
 * asked, all terms are matched.
 */
export function postgresKnowledge(db: PostgresDb): KnowledgeStore {
  const counted = async (terms: string[]): Promise<string[]> => {
    if (terms.length < 2) return terms;
    const { rows } = await db.query<{ t: string; n: number }>(
      'count the query words',
      `SELECT t, (SELECT count(*) FROM (SELECT 1 FROM knowledge_passages WHERE search @@ to_tsquery('english', t)
                    LIMIT ${CANDIDATES + 1}) x)::int AS n
         FROM unnest($1::text[]) t`,
      [terms],
    );
    const rare: string[] = [];
    let total = 0;
    for (const { t, n } of rows.sort((a, b) => a.n - b.n)) {
      if (total + n > CANDIDATES) break;
      rare.push(t);
      total += n;
    }
    // Rare terms that match nothing narrow to nothing: the common ones are all there is then.
    return total === 0 ? terms : rare;
  };
  const narrowed = lexemeNarrowing(db, 'knowledge_passages', counted);
  const search = async (scopes: readonly string[], terms: string[], match: string[], limit: number) => {
    const { rows } = await db.query<KnowledgeHitRow>(
      'search documents',
      `SELECT ${KNOWLEDGE_HIT_COLUMNS} FROM (
         SELECT scope, path, ordinal, heading, page, text, ts_rank_cd(search, q) AS rank
           FROM knowledge_passages, to_tsquery('english', $1) q
          WHERE search @@ to_tsquery('english', $4) AND scope = ANY($2::text[])
          LIMIT ${CANDIDATES}) candidates
        ORDER BY rank DESC, scope, path, ordinal LIMIT $3`,
      [terms.join(' | '), [...scopes], limit, match.join(' | ')],
    );
    return rows.map(knowledgeHitOf);
  };
  return {
    ...postgresEmbeddings(db),
    async putKnowledgeFile(file, passages) {
      await db.transaction('index a document', async (sql) => {
        const before = keptEmbeddings(
          (
            await sql<KeptEmbedding>(
              `SELECT heading, text, embedding, embedding_model AS model FROM knowledge_passages
                WHERE scope = $1 AND path = $2 AND embedding IS NOT NULL`,
              [file.scope, file.path],
            )
          ).rows,
        );
        await sql('DELETE FROM knowledge_passages WHERE scope = $1 AND path = $2', [file.scope, file.path]);
        await sql(
          `INSERT INTO knowledge_files (${KNOWLEDGE_FILE_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
           ON CONFLICT (scope, path) DO UPDATE SET size = excluded.size, modified_at = excluded.modified_at,
             indexed_at = excluded.indexed_at, passages = excluded.passages, error = excluded.error,
             shared_by = excluded.shared_by`,
          knowledgeFileValues(file),
        );
        for (let start = 0; start < passages.length; start += BATCH) {
          const batch = passages.slice(start, start + BATCH);
          const values: unknown[] = [];
          const rows = batch.map((p, i) => {
            const reuse = before.get(passageKey(p.heading, p.text));
            values.push(
              file.scope,
              file.path,
              start + i,
              p.heading ?? null,
              p.page ?? null,
              p.text,
              reuse?.embedding ?? null,
              reuse?.model ?? null,
            );
            const at = i * 8;
            return `(${Array.from({ length: 8 }, (_, k) => `$${at + k + 1}`).join(', ')})`;
          });
          await sql(
            `INSERT INTO knowledge_passages (scope, path, ordinal, heading, page, text, embedding, embedding_model)
             VALUES ${rows.join(', ')}`,
            values,
          );
        }
      });
    },
    async forgetKnowledgeFile(scope, path) {
      return db.transaction('forget a document', async (sql) => {
        await sql('DELETE FROM knowledge_passages WHERE scope = $1 AND path = $2', [scope, path]);
        const gone = await sql('DELETE FROM knowledge_files WHERE scope = $1 AND path = $2', [scope, path]);
        return (gone.rowCount ?? 0) > 0;
      });
    },
    async forgetKnowledgeScope(scope) {
      return db.transaction('forget a channel’s documents', async (sql) => {
        await sql('DELETE FROM knowledge_passages WHERE scope = $1', [scope]);
        return (await sql('DELETE FROM knowledge_files WHERE scope = $1', [scope])).rowCount ?? 0;
      });
    },
    async knowledgeFiles(scope) {
      const { rows } = await db.query<KnowledgeFileRow>(
        'list documents',
        `SELECT ${KNOWLEDGE_FILE_COLUMNS} FROM knowledge_files WHERE scope = $1 ORDER BY path`,
        [scope],
      );
      return rows.map(knowledgeFileOf);
    },
    async searchKnowledge(scopes, query, limit) {
      const terms = tsTerms(query);
      if (terms.length === 0 || scopes.length === 0 || limit < 1) return [];
      const rare = await narrowed(terms);
      const hits = await search(scopes, terms, rare, limit);
      if (hits.length >= limit || rare.length === terms.length) return hits;
      return filledUp(hits, await search(scopes, terms, terms, limit), limit);
    },
  };
}
