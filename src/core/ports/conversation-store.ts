import type { Turn } from '../memory/types.js';

/** A turn to store; its token count is computed once, before writing, and never again. */
export interface NewTurn extends Turn {
  tokens: number;
}

/** A stored turn; ids grow with every append and are never reused, so "turns up to id N" is stable. */
export interface StoredTurn extends NewTurn {
  id: number;
  /** Milliseconds since the epoch. */
  createdAt: number;
}

/** The running summary of a conversation's folded turns. */
export interface StoredSummary {
  text: string;
  tokens: number;
}

/** Everything stored for one conversation key, read in one consistent snapshot. */
export interface ConversationSnapshot {
  summary: StoredSummary | null;
  /** Turns folded into the summary so far. */
  summarizedTurns: number;
  /** Oldest first. */
  turns: StoredTurn[];
  /** Changes with every compaction and reset; appends leave it alone. */
  version: number;
}

/** A windowed load's turns: the newest `keep`, then older ones while the running token total stays within `maxTokens`. */
export interface TurnWindow {
  maxTokens: number;
  keep: number;
}

/** Replaces the oldest turns by a new summary, if nothing else compacted or reset the key meanwhile. */
export interface Compaction {
  /** Every turn with an id up to this one is folded. */
  throughId: number;
  /** How many turns that is; a mismatch means the snapshot is stale and nothing changes. */
  foldedTurns: number;
  /** The `version` of the snapshot the summary was made from. */
  expectedVersion: number;
  summary: StoredSummary;
}

/**
 * Where conversation memory persists. Every method is atomic on its own, so several processes may share
 * one store: appends never conflict with a compaction (it only touches older ids) and a stale compaction
 * is refused instead of overwriting newer state.
 */
export interface ConversationStore {
  /**
   * The key's summary and turns; an empty snapshot (version 0) for a key never seen. With a `window`, only
   * the newest turns it admits are read, so the cost of a load stays bounded however much history piles up.
   */
  load(key: string, window?: TurnWindow): Promise<ConversationSnapshot>;
  /** Appends one turn atomically, and archives it in the same transaction. */
  appendTurn(key: string, turn: NewTurn): Promise<StoredTurn>;
  /** Applies the compaction atomically; resolves false (changing nothing) when it is stale. */
  compact(key: string, compaction: Compaction): Promise<boolean>;
  /** Forgets the key's turns, summary, archive and channel notes (a person's own notes follow them). */
  reset(key: string): Promise<void>;
  /** Resolves once the store answers a trivial query; rejects with a StorageError when it is unreachable. */
  ping(): Promise<void>;
  /** Releases the connection; later calls fail with a StorageError. */
  close(): Promise<void>;
}
