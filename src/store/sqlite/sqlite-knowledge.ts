import type Database from 'better-sqlite3';
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
import { sqliteEmbeddings } from './sqlite-embeddings.js';
import { sqliteRunner } from './sqlite-run.js';
import type { FailWith } from './sqlite-usage.js';
import { indexText, wordPhrases } from './word-index.js';

/** Matches a search ranks at most: past this many, the first ones are ranked (see searchKnowledge). */
export const KNOWLEDGE_CANDIDATES = 4000;

/** The knowledge base in SQLite: passages searched by word with FTS5, ranked by bm25. */
export function sqliteKnowledge(db: Database.Database, fail: FailWith): KnowledgeStore {
  const putFile = db.prepare(
    `INSERT INTO knowledge_files (${KNOWLEDGE_FILE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (scope, path) DO UPDATE SET size = excluded.size, modified_at = excluded.modified_at,
       indexed_at = excluded.indexed_at, passages = excluded.passages, error = excluded.error,
       shared_by = excluded.shared_by`,
  );
  const dropPassages = db.prepare<[string, string]>(
    'DELETE FROM knowledge_passages WHERE scope = ? AND path = ?',
  );
  const addPassage = db.prepare<
    [string, string, number, string | null, number | null, string, Buffer | null, string | null]
  >(
    `INSERT INTO knowledge_passages (scope, path, ordinal, heading, page, text, embedding, embedding_model)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const kept = db.prepare<[string, string], KeptEmbedding>(
    `SELECT heading, text, embedding, embedding_model AS model FROM knowledge_passages
      WHERE scope = ? AND path = ? AND embedding IS NOT NULL`,
  );
  const addWords = db.prepare<[number | bigint, string, string]>(
    'INSERT INTO knowledge_words (rowid, heading, text) VALUES (?, ?, ?)',
  );
  const indexPassage = (id: number | bigint, heading: string | null | undefined, text: string) =>
    addWords.run(id, indexText(heading ?? ''), indexText(text));
  const dropFile = db.prepare<[string, string]>('DELETE FROM knowledge_files WHERE scope = ? AND path = ?');
  const dropScopePassages = db.prepare<[string]>('DELETE FROM knowledge_passages WHERE scope = ?');
  const dropScope = db.prepare<[string]>('DELETE FROM knowledge_files WHERE scope = ?');
  const files = db.prepare<[string], KnowledgeFileRow>(
    `SELECT ${KNOWLEDGE_FILE_COLUMNS} FROM knowledge_files WHERE scope = ? ORDER BY path`,
  );
  const put = db.transaction(
    (
      file: Parameters<KnowledgeStore['putKnowledgeFile']>[0],
      passages: Parameters<KnowledgeStore['putKnowledgeFile']>[1],
    ) => {
      const before = keptEmbeddings(kept.all(file.scope, file.path));
      dropPassages.run(file.scope, file.path);
      putFile.run(...knowledgeFileValues(file));
      passages.forEach((p, i) => {
        const reuse = before.get(passageKey(p.heading, p.text));
        const added = addPassage.run(
          file.scope,
          file.path,
          i,
          p.heading ?? null,
          p.page ?? null,
          p.text,
          (reuse?.embedding as Buffer | undefined) ?? null,
          reuse?.model ?? null,
        );
        indexPassage(added.lastInsertRowid, p.heading, p.text);
      });
    },
  );
  const forget = db.transaction((scope: string, path: string) => {
    dropPassages.run(scope, path);
    return dropFile.run(scope, path).changes > 0;
  });
  const forgetScope = db.transaction((scope: string) => {
    dropScopePassages.run(scope);
    return dropScope.run(scope).changes;
  });
  const run = sqliteRunner(fail);
  reindexWords(db, indexPassage);
  // How many passages hold a phrase, counted only up to the number of matches a search ranks.
  const matches = db.prepare<[string], { n: number }>(
    `SELECT count(*) AS n FROM (SELECT 1 FROM knowledge_words WHERE knowledge_words MATCH ? LIMIT ${KNOWLEDGE_CANDIDATES + 1})`,
  );
  // One statement per number of scopes (the knowledge base, a channel, or both), prepared once.
  const searches = new Map<number, Database.Statement<unknown[], KnowledgeHitRow>>();
  const searchIn = (scopes: number) => {
    let statement = searches.get(scopes);
    if (!statement) {
      statement = db.prepare<unknown[], KnowledgeHitRow>(
        `SELECT ${KNOWLEDGE_HIT_COLUMNS} FROM (
           SELECT p.id, p.scope, p.path, p.ordinal, p.heading, p.page, p.text, bm25(knowledge_words, 2.0, 1.0) AS rank
             FROM knowledge_words JOIN knowledge_passages p ON p.id = knowledge_words.rowid
            WHERE knowledge_words MATCH ? AND p.scope IN (${Array(scopes).fill('?').join(', ')})
            LIMIT ${KNOWLEDGE_CANDIDATES})
          ORDER BY rank, id LIMIT ?`,
      );
      searches.set(scopes, statement);
    }
    return statement;
  };
  /**
   * The match for a query's phrases: the passages holding one of its rare phrases (those together in at most
   * KNOWLEDGE_CANDIDATES passages), every phrase still counting for the rank; all phrases when none is rare,
   * the first KNOWLEDGE_CANDIDATES matches then ranked. A phrase in most passages tells little about which.
   */
  const matchFor = (phrases: string[]): string => {
    const all = phrases.join(' OR ');
    if (phrases.length === 1) return all;
    const counted = phrases.map((p) => ({ p, n: matches.get(p)?.n ?? 0 })).sort((a, b) => a.n - b.n);
    const rare: string[] = [];
    let total = 0;
    for (const { p, n } of counted) {
      if (total + n > KNOWLEDGE_CANDIDATES) break;
      rare.push(p);
      total += n;
    }
    // Rare phrases that match nothing narrow to nothing: the common ones are all there is then.
    return total === 0 || rare.length === phrases.length ? all : `(${rare.join(' OR ')}) AND (${all})`;
  };
  return {
    ...sqliteEmbeddings(db, run),
    putKnowledgeFile: (file, passages) => run('index a document', () => put(file, passages)),
    forgetKnowledgeFile: (scope, path) => run('forget a document', () => forget(scope, path)),
    forgetKnowledgeScope: (scope) => run('forget a channel’s documents', () => forgetScope(scope)),
    knowledgeFiles: (scope) => run('list documents', () => files.all(scope).map(knowledgeFileOf)),
    searchKnowledge: (scopes, query, limit) =>
      run('search documents', () => {
        const phrases = wordPhrases(query);
        if (phrases.length === 0 || scopes.length === 0 || limit < 1) return [];
        const search = searchIn(scopes.length);
        const all = phrases.join(' OR ');
        const match = matchFor(phrases);
        const hits = search.all(match, ...scopes, limit).map(knowledgeHitOf);
        if (hits.length >= limit || match === all) return hits;
        // The rare phrases may be in other scopes' files only.
        return filledUp(hits, search.all(all, ...scopes, limit).map(knowledgeHitOf), limit);
      }),
  };
}

/** Fills the word index from the passages kept before it existed (migration 19), once, in one transaction. */
function reindexWords(
  db: Database.Database,
  indexPassage: (id: number, heading: string | null, text: string) => unknown,
): void {
  const indexed = db.prepare('SELECT 1 FROM knowledge_words LIMIT 1').get();
  if (indexed) return;
  const page = db.prepare<[number], { id: number; heading: string | null; text: string }>(
    'SELECT id, heading, text FROM knowledge_passages WHERE id > ? ORDER BY id LIMIT 1000',
  );
  db.transaction(() => {
    for (let rows = page.all(0); rows.length > 0; rows = page.all(rows.at(-1)!.id)) {
      for (const row of rows) indexPassage(row.id, row.heading, row.text);
    }
  })();
}
