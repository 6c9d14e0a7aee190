/** A thumbs up or down on an answer. */
export type Vote = 'up' | 'down';

/** One person's feedback on one answer (a run). */
export interface FeedbackEntry {
  /** The run the answer came from (the id its buttons carry). */
  runId: string;
  /** `discord`, `slack`, … */
  platform: string;
  /** The conversation key the answer was given in. */
  key: string;
  /** Who voted: their principal (`slack:T…:U…`, `discord:…`). */
  userId: string;
  vote: Vote;
  /** What they added in words, when they did. */
  comment?: string | undefined;
  /** Milliseconds since the epoch. */
  at: number;
}

/** Votes counted over a period. */
export interface FeedbackTotals {
  up: number;
  down: number;
  /** Votes that came with a comment. */
  comments: number;
}

/** Where feedback on answers is kept: one vote per person and answer. */
export interface FeedbackStore {
  /**
   * Records a vote. A person's later vote on the same answer replaces theirs (never counted twice); a
   * comment, when given, replaces theirs too, and a vote without one keeps the earlier comment.
   */
  recordFeedback(entry: FeedbackEntry): Promise<void>;
  /** Votes whose latest change was at `since <= at < until`, optionally on one platform. */
  feedbackTotals(query: {
    since: number;
    until: number;
    platform?: string | undefined;
  }): Promise<FeedbackTotals>;
}
