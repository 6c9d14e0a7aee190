import type { UsageOutcome } from './usage-store.js';

/** One finished question as operations see it: no text, no names, only what can be counted. */
export interface RunObservation {
  /** `discord`, `slack`, `console`, `web`, … */
  platform: string;
  outcome: Exclude<UsageOutcome, 'pending' | 'summary'>;
  durationMs: number;
  modelCalls: number;
  promptTokens: number;
  completionTokens: number;
  /** Tool calls by tool name. */
  tools: Record<string, number>;
}

/** Told of every question the governed path finishes (answered, failed, cancelled, refused, limited). */
export interface RunObserver {
  observe(observation: RunObservation): void;
  /** A question waited this long in its channel's line before starting. */
  waited?(waitedMs: number): void;
}
