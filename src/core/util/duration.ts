const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Milliseconds of a duration written `30s`, `10m`, `24h`, `7d` or `500ms` (spaces allowed); undefined when not one. */
export function parseDuration(text: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)\s*$/i.exec(text);
  if (!match) return undefined;
  const ms = Number(match[1]) * UNITS[match[2]!.toLowerCase()]!;
  return Number.isFinite(ms) && ms >= 1 ? Math.round(ms) : undefined;
}
