/** The knowledge base's own scope (KNOWLEDGE_DIR); files shared in a channel are in the channel's settings key. */
export const BASE_SCOPE = 'base';

/** One passage of a document, where it is: its heading or page. */
export interface PassageInput {
  heading?: string | undefined;
  page?: number | undefined;
  text: string;
}

/** A document as indexed: where it is, what it was when read, and who shared it (files shared in a channel). */
export interface KnowledgeFile {
  /** `base`, or the settings key of the channel it was shared in. */
  scope: string;
  /** The path relative to KNOWLEDGE_DIR, or the shared file's name. */
  path: string;
  size: number;
  /** Modification time of the file when read (ms); for a shared file, when it was shared. */
  modifiedAt: number;
  indexedAt: number;
  passages: number;
  /** Why it could not be read (its passages are then none), in plain words. */
  error?: string | undefined;
  /** The principal who shared it in the channel; undefined for the knowledge base's own files. */
  sharedBy?: string | undefined;
}

/** A passage found by a search, best first. */
export interface KnowledgeHit {
  scope: string;
  path: string;
  /** Its place in the file (0 first): with scope and path, which passage it is. */
  ordinal: number;
  heading?: string | undefined;
  page?: number | undefined;
  text: string;
}

/** Which passage: its file (scope and path) and its place in it. */
export type PassageRef = Pick<KnowledgeHit, 'scope' | 'path' | 'ordinal'>;

/** A passage waiting for its embedding. */
export interface PassageToEmbed extends PassageRef {
  heading?: string | undefined;
  text: string;
}

/** A passage's embedding, as made by one model. */
export interface PassageEmbedding extends PassageRef {
  embedding: Float32Array;
}

/** Where documents' passages are kept and searched (full text in both engines, embeddings kept for the caller). */
export interface KnowledgeStore {
  /**
   * Replaces everything kept of the file (its record and passages) at once; no reader sees half of it. A
   * passage whose heading and text are unchanged keeps its embeddings.
   */
  putKnowledgeFile(file: KnowledgeFile, passages: readonly PassageInput[]): Promise<void>;
  /** Forgets a file and its passages; false when there was none. */
  forgetKnowledgeFile(scope: string, path: string): Promise<boolean>;
  /** Forgets every file of a scope (`/reset` of a channel); resolves to how many. */
  forgetKnowledgeScope(scope: string): Promise<number>;
  /** The files of a scope, by path. */
  knowledgeFiles(scope: string): Promise<KnowledgeFile[]>;
  /** The passages of these scopes matching `query` best, at most `limit`. */
  searchKnowledge(scopes: readonly string[], query: string, limit: number): Promise<KnowledgeHit[]>;
  /** These passages (those still kept), in no particular order. */
  knowledgePassages(refs: readonly PassageRef[]): Promise<KnowledgeHit[]>;
  /** Up to `limit` passages with no embedding by `model` (none yet, or another model's). */
  passagesToEmbed(model: string, limit: number): Promise<PassageToEmbed[]>;
  /**
   * Keeps embeddings made by `model` for passages that still hold the `text` they were made of (one whose
   * file changed meanwhile is left, to be embedded again) and marks their files indexed at `at`, so readers
   * of `knowledgeFiles` see them change.
   */
  putEmbeddings(
    model: string,
    embeddings: readonly (PassageEmbedding & { text: string })[],
    at: number,
  ): Promise<void>;
  /** The embeddings by `model` of a file's passages (those that have one). */
  knowledgeEmbeddings(scope: string, path: string, model: string): Promise<PassageEmbedding[]>;
}
