/** A rate limit: at most `limit` questions per `windowMs`. */
export interface Rate {
  limit: number;
  windowMs: number;
  /** As configured, e.g. `30/hour`, for messages. */
  text: string;
}

const UNITS: Record<string, number> = { minute: 60_000, hour: 3_600_000, day: 86_400_000 };

/** Parses `N/minute|hour|day` (null for `off`); undefined when malformed. */
export function parseRate(text: string): Rate | null | undefined {
  const value = text.trim().toLowerCase();
  if (value === 'off') return null;
  const match = /^(\d{1,9})\s*\/\s*(minute|hour|day)$/.exec(value);
  if (!match) return undefined;
  const limit = Number(match[1]);
  if (limit < 1) return undefined;
  return { limit, windowMs: UNITS[match[2]!]!, text: `${limit}/${match[2]}` };
}
