/** One reasoning step of a stored web chat answer, as the page showed it (already cut for display). */
export interface WebChatStep {
  kind: string;
  text: string;
  ok: boolean;
}

/** One question of a web conversation with its answer (or why there is none) and its reasoning steps. */
export interface WebChatRun {
  id: string;
  question: string;
  /** The names of the files sent with the question. */
  files?: string[] | undefined;
  /** How the run ended: `final`, `failed` or `cancelled`. */
  phase: string;
  steps: WebChatStep[];
  answer: string;
  note?: string | undefined;
  problem?: string | undefined;
}

/** A web conversation as its owner's list shows it. */
export interface WebChat {
  /** The conversation's memory key, `web:<chat>`. */
  key: string;
  title: string;
  /** Milliseconds since the epoch. */
  createdAt: number;
  updatedAt: number;
}

/** How {@link WebChatStore.saveWebChatRun} records a run. */
export interface SaveWebChatRun {
  /** The conversation's title when the run is its first. */
  title: string;
  /** Only the newest `keep` runs of the conversation are kept. */
  keep: number;
  /** Milliseconds since the epoch. */
  at: number;
}

/**
 * The web chat's conversations, each owned by one principal (a signed-in person, or a browser's minted
 * ID): their titles and every answer with its steps, so a person finds them again after a reload or a
 * restart. Every read and change names the owner; another owner's conversation is as if absent.
 */
export interface WebChatStore {
  /** The owner's conversations, most recently used first, at most `limit`. */
  listWebChats(owner: string, limit: number): Promise<WebChat[]>;
  /** The owner's conversation `key`, or undefined when there is none (or it is someone else's). */
  webChat(owner: string, key: string): Promise<WebChat | undefined>;
  /** The stored runs of the owner's conversation `key`, oldest first; empty when it is not theirs. */
  webChatRuns(owner: string, key: string): Promise<WebChatRun[]>;
  /**
   * Records an ended run in the owner's conversation `key`, creating the conversation when new; resolves
   * false (storing nothing) when `key` belongs to someone else. A run stored again (same id) replaces itself.
   */
  saveWebChatRun(owner: string, key: string, run: WebChatRun, options: SaveWebChatRun): Promise<boolean>;
  /** Renames the owner's conversation; false when it is not theirs. */
  renameWebChat(owner: string, key: string, title: string): Promise<boolean>;
  /** Deletes the owner's conversation and its runs; false when it is not theirs. */
  deleteWebChat(owner: string, key: string): Promise<boolean>;
  /** Drops the stored runs of conversation `key` (memory reset); the conversation stays listed. */
  clearWebChatRuns(key: string): Promise<void>;
  /** Deletes the owner's conversations (only `key`, when given) with their runs; resolves with how many. */
  forgetWebChats(owner: string, key?: string | undefined): Promise<number>;
}
