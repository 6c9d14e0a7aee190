import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';

// What a container would do, without a Docker daemon: the Dockerfile's instructions read as data, a folder laid
// out as its WORKDIR, and the bot started there with the image's command and a resolved environment.

const root = resolve(import.meta.dirname, '../..');

/** The parts of the Dockerfile a container's start depends on. */
export interface ImageSpec {
  workdir: string;
  /** ENV, in order; later instructions win. */
  env: Record<string, string>;
  cmd: string[];
  /** The health check's `node -e` script. */
  healthScript: string;
  /** COPY sources, relative to the build context. */
  copies: string[];
  /** RUN lines after the sources are copied (the build). */
  runs: string[];
  expose: number[];
}

/** Reads the Dockerfile's instructions (continuation lines joined). */
export function parseDockerfile(text: string): ImageSpec {
  const lines = text
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .filter((l) => l.trim() && !l.trimStart().startsWith('#'));
  const spec: ImageSpec = {
    workdir: '/',
    env: {},
    cmd: [],
    healthScript: '',
    copies: [],
    runs: [],
    expose: [],
  };
  for (const line of lines) {
    const [, op = '', rest = ''] = /^(\w+)\s+(.*)$/.exec(line.trim()) ?? [];
    if (op === 'WORKDIR') spec.workdir = rest;
    else if (op === 'ENV') for (const m of rest.matchAll(/([A-Z][A-Z0-9_]*)=(\S*)/g)) spec.env[m[1]!] = m[2]!;
    else if (op === 'CMD') spec.cmd = JSON.parse(rest) as string[];
    else if (op === 'EXPOSE') spec.expose = rest.split(/\s+/).map(Number);
    else if (op === 'COPY') spec.copies.push(...rest.split(/\s+/).slice(0, -1));
    else if (op === 'RUN' && spec.copies.length > 0) spec.runs.push(rest);
    else if (op === 'HEALTHCHECK') spec.healthScript = /CMD node -e "(.+)"$/.exec(rest)?.[1] ?? '';
  }
  return spec;
}

/** `--env-file` as Docker reads it: `KEY=value` verbatim (quotes and `#` kept), `KEY=` empty, bare `KEY` from the host. */
export function parseEnvFile(
  text: string,
  host: Record<string, string | undefined> = {},
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const raw of text.split('\n')) {
    const line = raw.replace(/^\s+/, '');
    if (!line || line.startsWith('#')) continue;
    const eq = line.indexOf('=');
    if (eq < 0) {
      const value = host[line.trim()];
      if (value !== undefined) env[line.trim()] = value;
    } else env[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return env;
}

/** One `docker run` command line of the docs. */
export interface DockerRun {
  envFiles: string[];
  env: Record<string, string>;
  /** `-p host:container` mappings, as container ports. */
  published: number[];
  image: string;
}

/** Splits a `docker run …` line (flags with a value take the next word). */
export function parseDockerRun(line: string): DockerRun {
  const words = line.trim().split(/\s+/).slice(2);
  const run: DockerRun = { envFiles: [], env: {}, published: [], image: '' };
  const withValue = new Set(['--env-file', '-e', '--env', '-p', '--publish', '-v', '--volume', '--name']);
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (!word.startsWith('-')) {
      run.image = word;
      break;
    }
    if (!withValue.has(word)) continue;
    const value = words[++i] ?? '';
    if (word === '--env-file') run.envFiles.push(value);
    else if (word === '-e' || word === '--env') {
      const eq = value.indexOf('=');
      if (eq > 0) run.env[value.slice(0, eq)] = value.slice(eq + 1);
    } else if (word === '-p' || word === '--publish') run.published.push(Number(value.split(':').at(-1)));
  }
  return run;
}

/**
 * A folder laid out as the image's WORKDIR: the COPY sources (minus what .dockerignore leaves out), the
 * dependencies (linked), and the build's RUN lines run in it.
 */
export function buildImageFolder(spec: ImageSpec): string {
  const dir = mkdtempSync(join(tmpdir(), 'thinkthread-image-'));
  const ignored = readFileSync(join(root, '.dockerignore'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#') && !l.includes('*'));
  for (const source of spec.copies) {
    cpSync(join(root, source), join(dir, source), {
      recursive: true,
      filter: (from) => !ignored.some((pattern) => relative(root, from) === pattern),
    });
  }
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  for (const run of spec.runs) {
    const [command = '', ...args] = run.split(/\s+/);
    if (command === 'node') execFileSync(process.execPath, args, { cwd: dir, stdio: 'pipe' });
    else if (command === 'mkdir') mkdirSync(join(dir, 'data'), { recursive: true });
  }
  mkdirSync(join(dir, 'data'), { recursive: true });
  return dir;
}

/** `value` with the image's WORKDIR replaced by `folder` (a path such as `sqlite:/app/data/x.db`). */
export function inFolder(value: string, workdir: string, folder: string): string {
  return value.split(`${workdir}/`).join(`${folder}/`);
}

/** A process started as the container starts it. */
export interface Started {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
}

/** Whether this machine lets a test make a user and mount namespace (to lay the image out read-only). */
export const canMountReadOnly = (): boolean => spawnSync('unshare', ['-rm', 'true']).status === 0;

/**
 * Runs the image's CMD in `folder` with exactly `env` (plus PATH and HOME, which the base image sets). With
 * `writable`, the folder is read-only (a read-only root filesystem) but for those folders in it, each an
 * empty one of its own (an emptyDir); see {@link canMountReadOnly}.
 */
export function startAsImage(
  spec: ImageSpec,
  folder: string,
  env: Record<string, string>,
  writable?: readonly string[],
): Started {
  const [command, ...args] = spec.cmd;
  if (command !== 'node') throw new Error(`the image's command is not node: ${spec.cmd.join(' ')}`);
  const mounts = (writable ?? []).map(
    (dir) => `mount --bind "${mkdtempSync(join(tmpdir(), 'thinkthread-empty-dir-'))}" "${dir}"`,
  );
  const readOnly = [`mount --bind "${folder}" "${folder}"`, `mount -o remount,bind,ro "${folder}"`];
  const [program, argv] = writable
    ? [
        'unshare',
        [
          '-rm',
          'sh',
          '-c',
          ['set -e', ...readOnly, ...mounts, 'exec "$@"'].join('\n'),
          'sh',
          process.execPath,
          ...args,
        ],
      ]
    : [process.execPath, args];
  const child = spawn(program, argv, {
    cwd: folder,
    env: { PATH: process.env.PATH ?? '', HOME: folder, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString('utf8');
  });
  child.stderr.on('data', (d: Buffer) => {
    out += d.toString('utf8');
  });
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  return { child, output: () => out, exited };
}

/** Runs the image's HEALTHCHECK command with the container's environment; resolves with its exit code. */
export function runHealthCheck(spec: ImageSpec, env: Record<string, string>): Promise<number | null> {
  const child = spawn(process.execPath, ['-e', spec.healthScript], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: 'ignore',
  });
  return new Promise((done) => child.on('exit', (code) => done(code)));
}
