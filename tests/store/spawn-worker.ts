import { type ChildProcess, spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(import.meta.dirname, '../..');
const tsxLoader = pathToFileURL(join(root, 'node_modules/tsx/dist/loader.mjs')).href;

/** What a worker printed after it was told to go. */
export interface WorkerTally {
  admitted: number;
  failed: number;
}

/**
 * Starts tests/store/usage-admit-worker.ts with `env`; resolves once it is ready, with a function that
 * tells it to go and resolves with its tally (rejecting, with its stderr, if it exits with an error).
 */
export async function startWorker(env: Record<string, string>): Promise<() => Promise<WorkerTally>> {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', tsxLoader, join(root, 'tests/store/usage-admit-worker.ts')],
    { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  child.stderr!.on('data', (d: Buffer) => {
    err += d.toString('utf8');
  });
  const exited = new Promise<number | null>((done) => child.on('exit', done));
  await new Promise<void>((ready, failed) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString('utf8');
      if (out.startsWith('ready\n')) ready();
    });
    void exited.then(() => failed(new Error(`worker exited before it was ready: ${err}`)));
  });
  return async () => {
    child.stdin!.write('go\n');
    const code = await exited;
    if (code !== 0) throw new Error(`worker exited with ${code}: ${err}`);
    return JSON.parse(out.slice('ready\n'.length).trim()) as WorkerTally;
  };
}
