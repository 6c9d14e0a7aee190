import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(import.meta.dirname, '../..');
// `--import tsx` would resolve from the child's cwd (a temp folder), so name the loader by path.
const tsxLoader = pathToFileURL(join(root, 'node_modules/tsx/dist/loader.mjs')).href;

/** A bot process started the way `npm start` starts it, with a clean environment. */
export interface BotProcess {
  child: ChildProcess;
  /** Everything written to stdout so far. */
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code once the process ends. */
  exited: Promise<number | null>;
  /** Waits until stdout contains `text` (or the process exits). */
  waitFor(text: string | RegExp): Promise<void>;
}

/**
 * Spawns `src/index.ts` through tsx in a fresh temp folder (so no developer `.env` leaks in),
 * with only the given variables plus PATH/HOME. Prompts come from the repository.
 */
export function spawnBot(env: Record<string, string>, options: { cwd?: string } = {}): BotProcess {
  const cwd = options.cwd ?? mkdtempSync(join(tmpdir(), 'thinkthread-bot-'));
  const child = spawn(process.execPath, ['--import', tsxLoader, join(root, 'src/index.ts')], {
    cwd,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? cwd,
      PROMPTS_DIR: join(root, 'prompts'),
      NO_COLOR: '1',
      ...env,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const waiters: (() => void)[] = [];
  child.stdout!.on('data', (d: Buffer) => {
    out += d.toString('utf8');
    for (const w of waiters.splice(0)) w();
  });
  child.stderr!.on('data', (d: Buffer) => {
    err += d.toString('utf8');
  });
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  void exited.then(() => {
    for (const w of waiters.splice(0)) w();
  });
  let ended = false;
  void exited.then(() => {
    ended = true;
  });
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    async waitFor(text) {
      const seen = () => (typeof text === 'string' ? out.includes(text) : text.test(out));
      while (!seen()) {
        if (ended) throw new Error(`bot exited before printing ${text}; stdout:\n${out}\nstderr:\n${err}`);
        await new Promise<void>((r) => waiters.push(r));
      }
    },
  };
}
