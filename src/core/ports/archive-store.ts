/** One turn as the archive keeps it: question, speaker, answer and time, never the steps. */
export interface ArchivedTurn {
  /** The turn's id (the same as in `turns` while it is still verbatim). */
  id: number;
  key: string;
  /** The speaker's display name. */
  author: string;
  /** Who asked (a principal), when the platform said; what forget-me finds a person's turns by. */
  principal: string | null;
  question: string;
  answer: string;
  /** Milliseconds since the epoch. */
  createdAt: number;
}

/** An archived turn waiting for its embedding: its words as embedded (speaker, question and answer). */
export interface TurnToEmbed {
  id: number;
  key: string;
  text: string;
}

/** An archived turn's embedding. */
export interface TurnEmbedding {
  id: number;
  embedding: Float32Array;
}

/** The archive's embeddings (EMBEDDINGS_MODEL), for `recall` by meaning. */
export interface ArchiveEmbeddingStore {
  /** Up to `limit` turns with no embedding by `model`, oldest first. */
  turnsToEmbed(model: string, limit: number): Promise<TurnToEmbed[]>;
  /** Keeps embeddings by `model` for the turns still archived. */
  putTurnEmbeddings(model: string, embeddings: readonly TurnEmbedding[]): Promise<void>;
  /** A conversation's embeddings by `model` of turns after `afterId`, by id, at most `limit`. */
  turnEmbeddings(key: string, model: string, afterId: number, limit: number): Promise<TurnEmbedding[]>;
  /** These turns of a conversation (those still archived). */
  archivedTurnsByIds(key: string, ids: readonly number[]): Promise<ArchivedTurn[]>;
}

/** A search of one conversation's archive. */
export interface ArchiveSearch {
  /** The conversation searched; no other conversation's turns are ever returned. */
  key: string;
  /** The model's words, as they came: the store quotes them, so no query syntax can fail the search. */
  query: string;
  /** Turns at or after this time (ms since the epoch). */
  from?: number | undefined;
  /** Turns before this time (ms since the epoch). */
  to?: number | undefined;
  /** Only turns whose speaker's name contains this (any case), or whose principal is exactly this. */
  speaker?: string | undefined;
  limit: number;
}

/**
 * What forget-me removes, by kind, with the plain words a reply counts it in (one, several). A new kind is
 * one line here; every engine's report must then count it.
 */
export const FORGOTTEN_KINDS = {
  turns: ['question and its answer', 'questions and their answers'],
  notes: ['note', 'notes'],
  webChats: ['web chat with its history', 'web chats with their history'],
  schedules: ['scheduled question', 'scheduled questions'],
  votes: ['vote on an answer', 'votes on answers'],
  runLogs: ['run log', 'run logs'],
  usage: [
    'usage record (kept as a count, without the name)',
    'usage records (kept as counts, without the name)',
  ],
  approvals: [
    'approval record (kept as a count, without the name or reason)',
    'approval records (kept as counts, without the name or reason)',
  ],
  waitingCalls: ['tool call waiting for approval', 'tool calls waiting for approval'],
  sessions: ['web sign-in session (signed out)', 'web sign-in sessions (signed out)'],
} as const satisfies Record<string, readonly [string, string]>;

/** A kind of thing forget-me removes. */
export type ForgottenKind = keyof typeof FORGOTTEN_KINDS;

/** What forget-me removed: how many of each kind. */
export type ForgetReport = Record<ForgottenKind, number>;

/** Whose data forget-me removes, and where. */
export interface ForgetRequest {
  principal: string;
  /** One conversation; every conversation when undefined (`--everywhere`). */
  key?: string | undefined;
  /**
   * Usage records at or after this time are kept under a one-way pseudonym of the person that rate limits
   * and budgets still count (a person cannot wipe today's budget by forgetting themselves); older ones, and
   * pseudonymous ones once they are this old, name nobody.
   */
  usageKeptSince: number;
}

/**
 * Every turn a conversation has had, searchable. Turns are archived when they are stored (in the same
 * transaction), so folding into the summary, a crash or a restart never loses one; `reset` clears them.
 */
export interface ArchiveStore {
  /** The best matches (bm25 / ts_rank), the newest first among equals; none for a query without words. */
  searchArchive(search: ArchiveSearch): Promise<ArchivedTurn[]>;
  /** The archive of `key` in id order, after `afterId`, at most `batch` turns (exports). */
  archivedTurns(key: string, afterId: number, batch: number): Promise<ArchivedTurn[]>;
  /**
   * Deletes every row naming a person, in one conversation or all: turns (archive and verbatim), notes,
   * web chats, schedules, votes, run logs; usage and approval records are kept without them.
   */
  forgetPerson(request: ForgetRequest): Promise<ForgetReport>;
  /** Drops archived turns created before `before`; resolves with how many went. */
  pruneArchive(before: number): Promise<number>;
}
