import { type Logger, pino } from 'pino';
import { jsonEscapeControls } from './util/control-text.js';

export type { Logger } from 'pino';

/**
 * Credentials that show up inside URLs (a platform's per-request tokens): the match's first group is kept and
 * the rest of the match replaced, e.g. `/(\/webhooks\/\d+\/)[\w.-]{16,}/g`.
 */
export type SecretPattern = RegExp;

/**
 * Replaces every occurrence of the given secret values in `text` with `[redacted]`, and the secret part of
 * every match of `patterns`.
 */
export function createRedactor(
  secrets: readonly (string | undefined)[],
  patterns: readonly SecretPattern[] = [],
): (text: string) => string {
  const values = secrets.filter((s): s is string => typeof s === 'string' && s.length >= 6);
  const literal =
    values.length > 0
      ? new RegExp(values.map((v) => v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'g')
      : undefined;
  const shaped = patterns.map((p) => new RegExp(p.source, p.flags.includes('g') ? p.flags : `${p.flags}g`));
  if (!literal && shaped.length === 0) return (text) => text;
  return (text) => {
    let out = literal ? text.replace(literal, '[redacted]') : text;
    for (const pattern of shaped) out = out.replace(pattern, (_match, kept: string) => `${kept}[redacted]`);
    return out;
  };
}

/**
 * A pino logger to stderr (or to `write`, one JSON line at a time) whose every line has secret values
 * scrubbed and no control character raw (pino leaves DEL, C1 and U+2028 as they are; they become `\u009b`).
 */
export function createLogger(options: {
  level: string;
  secrets: readonly (string | undefined)[];
  /** Credentials recognised by their shape in URLs (see {@link SecretPattern}). */
  patterns?: readonly SecretPattern[];
  write?: (line: string) => void;
}): Logger {
  const redact = createRedactor(options.secrets, options.patterns);
  const stream = options.write ? { write: options.write } : pino.destination({ dest: 2, sync: true });
  return pino(
    {
      level: options.level,
      base: undefined,
      redact: { paths: ['*.apiKey', '*.token', '*.authorization'], remove: true },
    },
    { write: (line: string) => stream.write(jsonEscapeControls(redact(line))) },
  );
}
