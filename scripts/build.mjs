// Compiles src/ to dist/ (one JavaScript file per TypeScript file, assets copied) with esbuild: about a
// second from scratch, and skipped when dist/ already matches src/. `npm start` runs it before starting, so a
// fresh clone needs no separate build step; `npm run build` runs it on its own. Type checking is
// `npm run typecheck` (tsc), not part of this.
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');
const dist = join(root, 'dist');
const stampFile = join(dist, '.build-stamp');

/** Every file under `dir`, as paths relative to it. */
function filesUnder(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath ?? entry.path, entry.name)))
    .sort();
}

/** A fingerprint of src/ (names, sizes, modification times) and of this script: it changes whenever dist/ must. */
function fingerprint(files) {
  const hash = createHash('sha256').update(readFileSync(fileURLToPath(import.meta.url)));
  for (const file of files) {
    const stat = statSync(join(src, file));
    hash.update(`${file}\0${stat.size}\0${stat.mtimeMs}\n`);
  }
  return hash.digest('hex');
}

/** Builds dist/ unless it is up to date; returns whether it built. */
export async function ensureBuilt({ force = false, quiet = false } = {}) {
  const files = filesUnder(src);
  const stamp = fingerprint(files);
  if (!force && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp) return false;
  const started = performance.now();
  const { build } = await import('esbuild');
  // Built aside and moved into place, so a process starting meanwhile never imports a half-written dist/.
  const staging = `${dist}.${process.pid}.tmp`;
  rmSync(staging, { recursive: true, force: true });
  const sources = files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
  await build({
    entryPoints: sources.map((f) => join(src, f)),
    outdir: staging,
    outbase: src,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
  });
  for (const asset of files.filter((f) => !f.endsWith('.ts'))) {
    mkdirSync(dirname(join(staging, asset)), { recursive: true });
    cpSync(join(src, asset), join(staging, asset));
  }
  writeFileSync(join(staging, '.build-stamp'), stamp);
  rmSync(dist, { recursive: true, force: true });
  try {
    renameSync(staging, dist);
  } catch (err) {
    // Another process built the same sources first: use its dist/.
    rmSync(staging, { recursive: true, force: true });
    if (!existsSync(stampFile) || readFileSync(stampFile, 'utf8') !== stamp) throw err;
  }
  if (!quiet) {
    const ms = Math.round(performance.now() - started);
    process.stderr.write(`thinkthread: compiled ${sources.length} files to dist/ in ${ms} ms\n`);
  }
  return true;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await ensureBuilt({ force: process.argv.includes('--force') });
}
