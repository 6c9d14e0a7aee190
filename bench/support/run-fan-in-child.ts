import { fork } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { FanInJob, FanInOutcome } from './fan-in-child.js';
import { REPO_ROOT } from './paths.js';

// As deep under the root as bench/support/, so the bundle's `import.meta.url` paths (prompts/) still resolve,
// and outside bench/, so packages resolve to the root install the bot uses.
const OUT_DIR = join(REPO_ROOT, '.bench-build/support');
const OUT = join(OUT_DIR, 'fan-in-child.mjs');
let bundled: Promise<unknown> | undefined;

/** Runs one fan-in in a fresh node process on the compiled code (the bot's and the floor's alike). */
export async function runFanInChild(job: FanInJob): Promise<FanInOutcome> {
  bundled ??= (async () => {
    mkdirSync(OUT_DIR, { recursive: true });
    await build({
      entryPoints: [join(REPO_ROOT, 'bench/support/fan-in-child.ts')],
      outdir: OUT_DIR,
      outExtension: { '.js': '.mjs' },
      // Split, so a dynamic import (the floor's mathjs) stays out of the process that does not take it.
      splitting: true,
      bundle: true,
      packages: 'external',
      format: 'esm',
      platform: 'node',
      target: 'node20',
      logLevel: 'warning',
    });
  })();
  await bundled;
  const child = fork(OUT, [JSON.stringify(job)], {
    execArgv: [],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise<FanInOutcome>((resolve, reject) => {
    let outcome: FanInOutcome | undefined;
    child.once('message', (m: FanInOutcome) => {
      outcome = m;
    });
    child.once('error', reject);
    child.once('exit', (code) =>
      outcome ? resolve(outcome) : reject(new Error(`the fan-in process (${job.who}) exited with ${code}`)),
    );
  });
}
