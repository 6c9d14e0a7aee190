/** How a waiting call was decided: by a person, by its timeout, or by its run stopping. */
export interface WaitDecision {
  outcome: 'approved' | 'denied' | 'expired' | 'stopped';
  at: number;
  /** Who pressed (a principal) and the name the steps show; none for `expired` and `stopped`. */
  by?: string | undefined;
  byName?: string | undefined;
  /** The reason a person gave with a denial. */
  reason?: string | undefined;
}

/**
 * A tool call waiting for a person, kept so that a press reaches it from any replica and a restart does
 * not lose it: `state` holds what resuming its run needs (the asker, the question, the conversation so far).
 */
export interface ApprovalWait {
  /** The approval's id, the one its buttons carry. */
  id: string;
  /** The run it belongs to: calls of one step that wait together share it, and resume together. */
  runId: string;
  platform: string;
  key: string;
  tool: string;
  /** Who asked the question (a principal): who may decide under APPROVERS=asker. */
  asker?: string | undefined;
  requestedAt: number;
  expiresAt: number;
  /** The process waiting on it, and when it last said it still does (ms). */
  owner: string;
  seenAt: number;
  /** What resuming the run needs, as JSON text (core/approvals/wait-state.ts). */
  state: string;
  decision?: WaitDecision | undefined;
}

/** A decision made elsewhere on a call this process waits on. */
export interface DecidedWait {
  id: string;
  decision: WaitDecision;
}

/** What {@link ApprovalWaitStore.claimOrphans} takes: waits whose process is gone and that can go on. */
export interface OrphanClaim {
  /** Waits whose owner has not been seen since before this (ms) are orphans. */
  staleBefore: number;
  /** An orphan goes on once decided, or once it expired by this time (ms). */
  now: number;
  /** Only waits of these platforms (the ones this process can answer on). */
  platforms: readonly string[];
  limit: number;
}

/** Where tool calls waiting for a person are kept while they wait (SQLite, Postgres). */
export interface ApprovalWaitStore {
  saveWait(wait: ApprovalWait): Promise<void>;
  getWait(id: string): Promise<ApprovalWait | undefined>;
  /**
   * Decides a wait unless it is decided already (or gone): resolves to the wait as now decided, or undefined
   * when another decision came first. Exactly one of concurrent decisions wins, across processes.
   */
  decideWait(id: string, decision: WaitDecision): Promise<ApprovalWait | undefined>;
  /** Marks `owner`'s waits as seen at `now` (it still waits on them); resolves to those decided elsewhere. */
  touchWaits(owner: string, now: number): Promise<DecidedWait[]>;
  /**
   * Takes the waits of processes that stopped (not seen since `staleBefore`) that were decided or expired,
   * with every other wait of their runs, deleting them: each is taken by exactly one caller.
   */
  claimOrphans(claim: OrphanClaim): Promise<ApprovalWait[]>;
  /** Forgets a wait (its run went on, or ended). */
  dropWait(id: string): Promise<void>;
  /** The calls waiting undecided in a conversation, oldest first. */
  waitsIn(key: string): Promise<ApprovalWait[]>;
}
