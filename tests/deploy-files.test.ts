import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_KEYS } from '../src/config.js';

// This machine cannot build images, so the deploy files are checked for what they name: commands, paths,
// variables and routes that must exist for them to work.

const dockerfile = readFileSync('Dockerfile', 'utf8');
const compose = readFileSync('compose.yaml', 'utf8');
const procfile = readFileSync('Procfile', 'utf8');
const deployDoc = readFileSync('docs/deploy.md', 'utf8');
const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  engines: { node: string };
};

/** Variables the Postgres image reads; everything else a deploy file sets must be a thinkthread setting. */
const POSTGRES_IMAGE_VARS = ['POSTGRES_USER', 'POSTGRES_PASSWORD', 'POSTGRES_DB'];
/** Other programs' variables the deploy doc names (the model server's). */
const OTHER_PROGRAMS_VARS = ['OLLAMA_HOST'];

function npmScriptsNamed(text: string): string[] {
  return [...text.matchAll(/\bnpm (?:run ([a-z:-]+)|(start|test))\b/g)].map((m) => m[1] ?? m[2]!);
}

function run(
  command: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  const child = spawn(command, args, { env: { PATH: process.env.PATH ?? '', ...env }, stdio: 'pipe' });
  let output = '';
  child.stdout.on('data', (d: Buffer) => {
    output += d.toString('utf8');
  });
  child.stderr.on('data', (d: Buffer) => {
    output += d.toString('utf8');
  });
  return new Promise((done) => child.on('close', (code) => done({ code, output })));
}

describe('Dockerfile', () => {
  it('starts from a Node version the package supports', () => {
    const major = Number(/^FROM node:(\d+)/m.exec(dockerfile)?.[1]);
    const minimum = Number(/>=\s*(\d+)/.exec(pkg.engines.node)?.[1]);
    expect(major).toBeGreaterThanOrEqual(minimum);
  });

  it('copies only paths that exist', () => {
    const sources = [...dockerfile.matchAll(/^COPY (.+) \S+$/gm)].flatMap((m) => m[1]!.split(/\s+/));
    expect(sources.length).toBeGreaterThan(0);
    for (const source of sources) expect(existsSync(source), source).toBe(true);
  });

  it('sets only thinkthread settings', () => {
    const env = /^ENV ((?:.*\\\n)*.*)$/m.exec(dockerfile)?.[1] ?? '';
    const names = [...env.matchAll(/([A-Z][A-Z0-9_]*)=/g)].map((m) => m[1]!);
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) expect(CONFIG_KEYS, name).toContain(name);
  });

  it('runs what npm start runs, with esbuild (the build) from the production dependencies', async () => {
    const cmd = JSON.parse(/^CMD (\[.*\])$/m.exec(dockerfile)![1]!) as string[];
    expect(cmd[0]).toBe('node');
    expect(pkg.scripts.start).toBe(cmd.join(' '));
    expect(pkg.dependencies).toHaveProperty('esbuild');
    expect(dockerfile).toMatch(/^RUN node scripts\/build\.mjs$/m);
    // A bad setting proves the command reaches the config check without starting anything.
    const { code, output } = await run(process.execPath, cmd.slice(1), { PORT: 'not-a-port' });
    expect(code).toBe(1);
    expect(output).toContain('PORT');
  });

  it('the health check passes while /healthz answers 200 and fails otherwise', async () => {
    const script = /node -e "(.+)"$/m.exec(dockerfile)![1]!;
    let status = 200;
    const seen: string[] = [];
    const server = createServer((req, res) => {
      seen.push(req.url ?? '');
      res.writeHead(status).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = String((server.address() as AddressInfo).port);
    try {
      expect((await run(process.execPath, ['-e', script], { PORT: port })).code).toBe(0);
      expect((await run(process.execPath, ['-e', script], { PORT: '1', HEALTH_PORT: port })).code).toBe(0);
      status = 503;
      expect((await run(process.execPath, ['-e', script], { PORT: port })).code).toBe(1);
      expect(seen).toEqual(['/healthz', '/healthz', '/healthz']);
    } finally {
      server.close();
    }
  });
});

describe('compose.yaml', () => {
  it('sets only thinkthread settings and the Postgres image variables', () => {
    const blocks = [...compose.matchAll(/^ {4}environment:\n((?: {6}.+\n)+)/gm)].map((m) => m[1]!);
    const names = blocks.flatMap((b) => [...b.matchAll(/^ {6}([A-Z][A-Z0-9_]*):/gm)].map((m) => m[1]!));
    expect(names).toContain('DATABASE_URL');
    for (const name of names) expect([...CONFIG_KEYS, ...POSTGRES_IMAGE_VARS], name).toContain(name);
  });

  it('points the bot at the Postgres service it defines, with its user and database', () => {
    const url = /DATABASE_URL: (\S+)/.exec(compose)![1]!;
    const user = /POSTGRES_USER: (\S+)/.exec(compose)![1];
    const db = /POSTGRES_DB: (\S+)/.exec(compose)![1];
    expect(url).toMatch(new RegExp(`^postgres://${user}:.+@postgres:5432/${db}$`));
    expect(compose).toMatch(/^ {2}postgres:\n/m);
    expect(compose).toMatch(/^ {4}build: \.$/m);
  });

  it('lets the bot reach a model on the host by the name the docs give it, on Linux too', () => {
    expect(compose).toMatch(/^ {4}extra_hosts:\n {6}- "host\.docker\.internal:host-gateway"$/m);
    expect(deployDoc).toContain('OPENAI_BASE_URL=http://host.docker.internal:11434/v1');
    expect(deployDoc).toContain('--add-host=host.docker.internal:host-gateway');
  });
});

describe('running on production dependencies alone', () => {
  it('README says how, and nothing the bot loads is a dev dependency', () => {
    expect(readFileSync('README.md', 'utf8')).toContain('npm install --omit=dev && npm start');
    const sources = readdirSync('src', { recursive: true, encoding: 'utf8' }).filter((f) =>
      /\.(ts|js)$/.test(f),
    );
    const loaded = new Set<string>();
    for (const file of sources) {
      const text = readFileSync(join('src', file), 'utf8');
      const specifiers = [
        ...text.matchAll(/^\s*(?:import|export)\s+(?!type\b)[^'";]*?from\s+'([^'.][^']*)'/gm),
        ...text.matchAll(/\bimport\(\s*'([^'.][^']*)'\s*\)/g),
        ...text.matchAll(/[Rr]equire(?:\([^)]*\))?\.resolve\(\s*'([^'.][^']*)'/g),
      ].map((m) => m[1]!);
      for (const s of specifiers) {
        if (s.startsWith('node:')) continue;
        loaded.add(s.startsWith('@') ? s.split('/').slice(0, 2).join('/') : s.split('/')[0]!);
      }
    }
    expect(loaded.size).toBeGreaterThan(5);
    for (const name of loaded) expect(Object.keys(pkg.dependencies), name).toContain(name);
  });
});

describe('Procfile and docs/deploy.md', () => {
  it('name only npm scripts that exist', () => {
    const named = [...npmScriptsNamed(procfile), ...npmScriptsNamed(deployDoc)];
    expect(named).toContain('start');
    for (const script of named) expect(Object.keys(pkg.scripts), script).toContain(script);
  });

  it('the Procfile sets only settings that exist, and its web process takes requests from outside', () => {
    const named = [...procfile.matchAll(/\b([A-Z][A-Z0-9_]{2,})=/g)].map((m) => m[1]!);
    for (const name of named) expect(CONFIG_KEYS, name).toContain(name);
    // The platform's router reaches the dyno from outside, so the web chat must bind every interface.
    expect(procfile).toMatch(/^web: WEB_HOST=\$\{WEB_HOST:-0\.0\.0\.0\} npm start$/m);
  });

  it('name only settings that exist', () => {
    const named = [...deployDoc.matchAll(/`([A-Z][A-Z0-9_]{2,})(?:=[^`]*)?`/g)].map((m) => m[1]!);
    expect(named).toContain('DATABASE_URL');
    const known = [...CONFIG_KEYS, ...POSTGRES_IMAGE_VARS, ...OTHER_PROGRAMS_VARS];
    for (const name of named) expect(known, name).toContain(name);
  });

  it('name only files that exist', () => {
    const paths = [
      ...deployDoc.matchAll(/`((?:[\w.-]+\/)*[\w-]+\.(?:ts|md|yaml|yml|json|example)|Dockerfile|Procfile)`/g),
    ]
      .map((m) => m[1]!)
      .filter((p) => !p.startsWith('mcp.json'));
    expect(paths).toEqual(expect.arrayContaining(['Dockerfile', 'compose.yaml', 'Procfile']));
    for (const path of paths) expect(existsSync(path), path).toBe(true);
  });

  it('name only HTTP routes the bot serves', () => {
    const routes = [...deployDoc.matchAll(/`(?:GET|POST) (\/[a-z/]+)`/g)].map((m) => m[1]!);
    const served = ['src/server/http-server.ts', 'src/index.ts', 'src/platforms/slack/mounted-receiver.ts']
      .map((f) => readFileSync(f, 'utf8'))
      .join('\n');
    expect(routes.length).toBeGreaterThan(0);
    for (const route of routes) expect(served, route).toContain(`'${route}'`);
  });
});
