import type { Logger } from '../logger.js';
import type { RunLogStore } from '../ports/run-log-store.js';

const DAY_MS = 86_400_000;

/** What {@link startRunLogRetention} needs. */
export interface RunLogRetentionDeps {
  store: Pick<RunLogStore, 'pruneRunLogs'>;
  /** RUN_LOG_RETENTION_DAYS; with 0 nothing is kept, so every log left from before is dropped. */
  days: number;
  logger?: Logger | undefined;
  now?: () => number;
  /** How often it runs; daily by default. */
  everyMs?: number;
}

/**
 * Drops run logs older than RUN_LOG_RETENTION_DAYS now and then daily (replicas may all do it: the delete
 * is idempotent). Returns a stop function.
 */
export function startRunLogRetention(deps: RunLogRetentionDeps): () => void {
  const now = deps.now ?? Date.now;
  const prune = async () => {
    try {
      const dropped = await deps.store.pruneRunLogs(now() - deps.days * DAY_MS);
      if (dropped > 0) deps.logger?.info({ dropped, days: deps.days }, 'run logs past retention dropped');
    } catch (err) {
      deps.logger?.warn({ err }, 'could not drop run logs past retention; trying again tomorrow');
    }
  };
  void prune();
  const timer = setInterval(() => void prune(), deps.everyMs ?? DAY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
