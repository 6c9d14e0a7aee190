import type { Logger } from '../logger.js';
import type { ArchiveStore } from '../ports/archive-store.js';

const DAY_MS = 86_400_000;

/** What {@link startRetention} needs. */
export interface RetentionDeps {
  archive: Pick<ArchiveStore, 'pruneArchive'>;
  /** MEMORY_RETENTION_DAYS: archived turns older than this are dropped; 0 keeps them all. */
  days: number;
  logger?: Logger | undefined;
  now?: () => number;
  /** How often it runs; daily by default. */
  everyMs?: number;
}

/**
 * Drops archived turns older than MEMORY_RETENTION_DAYS now and then daily (replicas may all do it: the
 * delete is idempotent). Returns a stop function; nothing runs when retention is off.
 */
export function startRetention(deps: RetentionDeps): () => void {
  if (!(deps.days > 0)) return () => {};
  const now = deps.now ?? Date.now;
  const prune = async () => {
    try {
      const dropped = await deps.archive.pruneArchive(now() - deps.days * DAY_MS);
      if (dropped > 0)
        deps.logger?.info({ dropped, days: deps.days }, 'archived turns past retention dropped');
    } catch (err) {
      deps.logger?.warn({ err }, 'could not drop archived turns past retention; trying again tomorrow');
    }
  };
  void prune();
  const timer = setInterval(() => void prune(), deps.everyMs ?? DAY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
