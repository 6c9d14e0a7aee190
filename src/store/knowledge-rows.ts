import type { KnowledgeFile, KnowledgeHit } from '../core/ports/knowledge-store.js';

/** The columns of `knowledge_files`, in the order rows are written. */
export const KNOWLEDGE_FILE_COLUMNS =
  'scope, path, size, modified_at, indexed_at, passages, error, shared_by';

/** A `knowledge_files` row as either driver returns it. */
export interface KnowledgeFileRow {
  scope: string;
  path: string;
  size: number | string;
  modified_at: number | string;
  indexed_at: number | string;
  passages: number;
  error: string | null;
  shared_by: string | null;
}

/** A passage row as a search returns it. */
export interface KnowledgeHitRow {
  scope: string;
  path: string;
  heading: string | null;
  page: number | null;
  text: string;
}

/** The values of a file's row, in column order. */
export function knowledgeFileValues(file: KnowledgeFile): (string | number | null)[] {
  return [
    file.scope,
    file.path,
    file.size,
    file.modifiedAt,
    file.indexedAt,
    file.passages,
    file.error ?? null,
    file.sharedBy ?? null,
  ];
}

/** The file a row holds. */
export function knowledgeFileOf(row: KnowledgeFileRow): KnowledgeFile {
  return {
    scope: row.scope,
    path: row.path,
    size: Number(row.size),
    modifiedAt: Number(row.modified_at),
    indexedAt: Number(row.indexed_at),
    passages: row.passages,
    ...(row.error ? { error: row.error } : {}),
    ...(row.shared_by ? { sharedBy: row.shared_by } : {}),
  };
}

/** The hit a row holds. */
export function knowledgeHitOf(row: KnowledgeHitRow): KnowledgeHit {
  return {
    scope: row.scope,
    path: row.path,
    ...(row.heading ? { heading: row.heading } : {}),
    ...(row.page !== null && row.page !== undefined ? { page: Number(row.page) } : {}),
    text: row.text,
  };
}
