import { ThinkthreadError } from '../core/errors.js';

/** An error's message on one line, for a command's one-line failure. */
export function oneLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).replace(/\s*\n\s*/g, ' ');
}

/** Writes `line` to stderr and exits with `code`. */
export function exitWith(code: number, line: string): never {
  process.stderr.write(`${line}\n`);
  process.exit(code);
}

/** Runs a command's `main`; anything it throws ends the process with one line and exit 1, never a stack. */
export async function runCli(name: string, main: () => Promise<void>): Promise<void> {
  try {
    await main();
  } catch (err) {
    exitWith(
      1,
      `thinkthread ${name}: ${err instanceof ThinkthreadError ? oneLine(err) : `failed: ${oneLine(err)}`}`,
    );
  }
}
