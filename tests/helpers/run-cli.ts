import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(import.meta.dirname, '../..');
// `--import tsx` would resolve from the child's cwd (a temp folder), so name the loader by path.
const tsxLoader = pathToFileURL(join(root, 'node_modules/tsx/dist/loader.mjs')).href;

/** How a command-line run ended. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `src/cli/<name>.ts` the way `npm run <name>` does, in `cwd`, with only `env` plus PATH/HOME. */
export function runCli(
  name: string,
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<CliRun> {
  const child = spawn(process.execPath, ['--import', tsxLoader, join(root, `src/cli/${name}.ts`), ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: cwd, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString('utf8');
  });
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString('utf8');
  });
  return new Promise((done) => child.on('close', (code) => done({ code, stdout, stderr })));
}
