/** Response headers as the `openai` SDK and lean-fetch expose them. */
export interface HeaderLookup {
  get(name: string): string | null;
}

/**
 * How long a response asks the client to wait, in milliseconds, read as the `openai` SDK reads it:
 * `retry-after-ms`, else `retry-after` in seconds or as an HTTP date. Undefined when it does not say.
 */
export function retryAfterMs(headers: HeaderLookup | null | undefined, now = Date.now()): number | undefined {
  const millis = Number.parseFloat(headers?.get('retry-after-ms') ?? '');
  if (!Number.isNaN(millis)) return millis;
  const after = headers?.get('retry-after');
  if (!after) return undefined;
  const seconds = Number.parseFloat(after);
  if (!Number.isNaN(seconds)) return seconds * 1000;
  const at = Date.parse(after);
  return Number.isNaN(at) ? undefined : at - now;
}
