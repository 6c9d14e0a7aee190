// Installs the benchmark's own dependencies (the comparison frameworks: LangChain, @openai/agents) into
// bench/node_modules on first use, and again whenever bench/package-lock.json changes. `npm run bench` and
// `npm run bench:typecheck` run it first; the root install never carries these packages.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const benchDir = fileURLToPath(new URL('.', import.meta.url));
const lockPath = fileURLToPath(new URL('./package-lock.json', import.meta.url));
const modulesDir = fileURLToPath(new URL('./node_modules/', import.meta.url));
const hashPath = `${modulesDir}.thinkthread-lock-hash`;

const lockHash = createHash('sha256').update(readFileSync(lockPath)).digest('hex');
const installed = existsSync(hashPath) ? readFileSync(hashPath, 'utf8').trim() : undefined;

if (installed !== lockHash) {
  process.stderr.write(
    `${installed ? 'bench/package-lock.json changed: reinstalling' : 'Installing'} the benchmark's comparison frameworks into bench/node_modules (npm ci --prefix bench)…\n`,
  );
  // Under `npm run`, npm_execpath is the running npm's CLI script; otherwise the npm on PATH.
  const npmCli = process.env.npm_execpath;
  const [command, prefixArgs] =
    npmCli && /\.[cm]?js$/.test(npmCli) ? [process.execPath, [npmCli]] : ['npm', []];
  const result = spawnSync(command, [...prefixArgs, 'ci', '--prefix', benchDir, '--no-audit', '--no-fund'], {
    stdio: ['ignore', process.stderr, 'inherit'], // npm's summary line goes to stderr too
    shell: command === 'npm' && process.platform === 'win32',
  });
  if (result.status !== 0) {
    process.stderr.write(`npm ci --prefix bench failed (exit ${result.status ?? result.signal})\n`);
    process.exit(1);
  }
  writeFileSync(hashPath, `${lockHash}\n`);
}
