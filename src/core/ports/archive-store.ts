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

/** What forget-me removed. */
export interface ForgetReport {
  /** Archived turns (their questions and the answers to them), verbatim turns included. */
  turns: number;
  notes: number;
  /** Usage records no longer naming the person, and votes removed. */
  usage: number;
  /** Questions the person had scheduled, cancelled (when the bot keeps schedules). */
  schedules?: number | undefined;
}

/** Whose data forget-me removes, and where. */
export interface ForgetRequest {
  principal: string;
  /** One conversation; every conversation when undefined (`--everywhere`). */
  key?: string | undefined;
  /**
   * Usage records at or after this time keep the person's name, since rate limits and budgets still count
   * them (a person cannot wipe today's budget by forgetting themselves); older ones are anonymised.
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
  /** Deletes a person's turns (archive and verbatim), notes and usage details, in one conversation or all. */
  forgetPerson(request: ForgetRequest): Promise<ForgetReport>;
  /** Drops archived turns created before `before`; resolves with how many went. */
  pruneArchive(before: number): Promise<number>;
}
