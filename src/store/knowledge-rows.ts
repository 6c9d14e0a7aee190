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

/** The columns of a passage as a search returns it. */
export const KNOWLEDGE_HIT_COLUMNS = 'scope, path, ordinal, heading, page, text';

/** A passage row as a search returns it. */
export interface KnowledgeHitRow {
  scope: string;
  path: string;
  ordinal: number;
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
    ordinal: Number(row.ordinal),
    ...(row.heading ? { heading: row.heading } : {}),
    ...(row.page !== null && row.page !== undefined ? { page: Number(row.page) } : {}),
    text: row.text,
  };
}

/** An embedding as stored: its 32-bit floats' bytes in the machine's order (little-endian on x86 and Arm). */
export function embeddingBytes(embedding: Float32Array): Buffer {
  return Buffer.from(embedding.buffer, embedding.byteOffset, embedding.byteLength);
}

/** The embedding stored bytes hold (copied, so it is aligned and owns its memory). */
export function embeddingOf(bytes: Uint8Array): Float32Array {
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return new Float32Array(copy.buffer, 0, Math.floor(bytes.byteLength / 4));
}

/** A passage's embedding as kept before its file is indexed again. */
export interface KeptEmbedding {
  heading: string | null;
  text: string;
  embedding: Uint8Array;
  model: string | null;
}

/** What identifies a passage's content: an unchanged heading and text keep their embedding. */
export const passageKey = (heading: string | null | undefined, text: string) =>
  `${heading ?? ''}\u0000${text}`;

/** The kept embeddings of a file by passage content. */
export function keptEmbeddings(rows: readonly KeptEmbedding[]): Map<string, KeptEmbedding> {
  return new Map(rows.map((r) => [passageKey(r.heading, r.text), r]));
}

/**
 * The hits of a search narrowed to a query's rare words, then, in the places they leave, those of all its
 * words (`rest`): a passage with a rare word ranks above those without.
 */
export function filledUp(hits: KnowledgeHit[], rest: readonly KnowledgeHit[], limit: number): KnowledgeHit[] {
  const key = (h: KnowledgeHit) => `${h.scope}\n${h.path}\n${h.ordinal}`;
  const seen = new Set(hits.map(key));
  return [...hits, ...rest.filter((h) => !seen.has(key(h)))].slice(0, limit);
}
