import type Database from 'better-sqlite3';
import type { KnowledgeStore } from '../../core/ports/knowledge-store.js';
import {
  KNOWLEDGE_FILE_COLUMNS,
  type KnowledgeFileRow,
  type KnowledgeHitRow,
  knowledgeFileOf,
  knowledgeFileValues,
  knowledgeHitOf,
} from '../knowledge-rows.js';
import { ftsQuery } from './sqlite-archive.js';
import { sqliteRunner } from './sqlite-run.js';
import type { FailWith } from './sqlite-usage.js';

/** The knowledge base in SQLite: passages searched with FTS5 (trigram, as recall), ranked by bm25. */
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
  const addPassage = db.prepare<[string, string, number, string | null, number | null, string]>(
    'INSERT INTO knowledge_passages (scope, path, ordinal, heading, page, text) VALUES (?, ?, ?, ?, ?, ?)',
  );
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
      dropPassages.run(file.scope, file.path);
      putFile.run(...knowledgeFileValues(file));
      passages.forEach((p, i) => {
        addPassage.run(file.scope, file.path, i, p.heading ?? null, p.page ?? null, p.text);
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
  // One statement per number of scopes (the knowledge base, a channel, or both), prepared once.
  const searches = new Map<number, Database.Statement<unknown[], KnowledgeHitRow>>();
  const searchIn = (scopes: number) => {
    let statement = searches.get(scopes);
    if (!statement) {
      statement = db.prepare<unknown[], KnowledgeHitRow>(
        `SELECT p.scope, p.path, p.heading, p.page, p.text
           FROM knowledge_fts JOIN knowledge_passages p ON p.id = knowledge_fts.rowid
          WHERE knowledge_fts MATCH ? AND p.scope IN (${Array(scopes).fill('?').join(', ')})
          ORDER BY bm25(knowledge_fts, 2.0, 1.0), p.id LIMIT ?`,
      );
      searches.set(scopes, statement);
    }
    return statement;
  };
  return {
    putKnowledgeFile: (file, passages) => run('index a document', () => put(file, passages)),
    forgetKnowledgeFile: (scope, path) => run('forget a document', () => forget(scope, path)),
    forgetKnowledgeScope: (scope) => run('forget a channel’s documents', () => forgetScope(scope)),
    knowledgeFiles: (scope) => run('list documents', () => files.all(scope).map(knowledgeFileOf)),
    searchKnowledge: (scopes, query, limit) =>
      run('search documents', () => {
        const match = ftsQuery(query);
        if (!match || scopes.length === 0 || limit < 1) return [];
        const rows = searchIn(scopes.length).all(match, ...scopes, limit);
        return rows.map(knowledgeHitOf);
      }),
  };
}
