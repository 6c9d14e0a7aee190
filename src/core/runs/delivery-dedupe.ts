/** How long a delivery is remembered: Slack retries within minutes (at once, after 1 min, after 5 min). */
export const DEDUPE_TTL_MS = 30 * 60 * 1000;
/** Most deliveries remembered; the oldest are forgotten first. */
export const DEDUPE_SIZE = 10_000;

/** Remembers what was already handled; `firstTime` is true only for keys not seen recently. */
export interface Deduper {
  /** Records every key and returns true only if none of them was seen before. */
  firstTime(...keys: string[]): boolean;
}

/**
 * Slack redelivers an event (same `event_id`, `X-Slack-Retry-Num` set) when the ack seemed late, and one
 * message may arrive both as `app_mention` and as `message.im`; each must start at most one run.
 */
export function createDeduper(now: () => number = Date.now): Deduper {
  const seen = new Map<string, number>();
  return {
    firstTime(...keys) {
      const at = now();
      // Entries are in insertion order, so expired ones sit at the front.
      for (const [key, expires] of seen) {
        if (expires > at && seen.size <= DEDUPE_SIZE) break;
        seen.delete(key);
      }
      const fresh = keys.every((key) => !seen.has(key));
      for (const key of keys) seen.set(key, at + DEDUPE_TTL_MS);
      return fresh;
    },
  };
}
