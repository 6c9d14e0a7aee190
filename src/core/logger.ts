import { type Logger, pino } from 'pino';

export type { Logger } from 'pino';

/** Replaces every occurrence of the given secret values in `text` with `[redacted]`. */
export function createRedactor(secrets: readonly (string | undefined)[]): (text: string) => string {
  const values = secrets.filter((s): s is string => typeof s === 'string' && s.length >= 6);
  if (values.length === 0) return (text) => text;
  const pattern = new RegExp(values.map((v) => v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'g');
  return (text) => text.replace(pattern, '[redacted]');
}

/** A pino logger to stderr (or to `write`, one JSON line at a time) whose every line has secret values scrubbed. */
export function createLogger(options: {
  level: string;
  secrets: readonly (string | undefined)[];
  write?: (line: string) => void;
}): Logger {
  const redact = createRedactor(options.secrets);
  const stream = options.write ? { write: options.write } : pino.destination({ dest: 2, sync: true });
  return pino(
    {
      level: options.level,
      base: undefined,
      redact: { paths: ['*.apiKey', '*.token', '*.authorization'], remove: true },
    },
    { write: (line: string) => stream.write(redact(line)) },
  );
}
