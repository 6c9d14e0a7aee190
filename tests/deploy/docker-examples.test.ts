import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CONFIG_KEYS } from '../../src/config.js';
import { type FakeDiscord, startFakeDiscord } from '../fakes/discord-server.js';
import { type FakeOpenAI, startFakeOpenAI } from '../fakes/openai-server.js';
import { freePort } from '../helpers/free-port.js';
import { waitForHttp } from '../helpers/wait-for-http.js';
import { dropSchema, freshSchema, testDatabaseUrl, withSchema } from '../store/postgres-test-db.js';
import {
  buildImageFolder,
  inFolder,
  parseDockerfile,
  parseDockerRun,
  parseEnvFile,
  runHealthCheck,
  type Started,
  startAsImage,
} from './image.js';

// Every `docker run` and `docker compose up` of docs/deploy.md, carried out as far as this machine can without a
// Docker daemon: the container's environment resolved as Docker resolves it (image ENV, then --env-file or
// env_file, then -e or compose's environment), the image's command started in a folder laid out like the image,
// and the ports it opens asked what a browser, the health check and Prometheus would ask. A container has its
// own network, so the container ports (PORT, HEALTH_PORT) become free ports here, the same in the health check.

const spec = parseDockerfile(readFileSync('Dockerfile', 'utf8'));
const deployDoc = readFileSync('docs/deploy.md', 'utf8');
const envExample = readFileSync('.env.example', 'utf8');
const compose = parse(readFileSync('compose.yaml', 'utf8')) as {
  services: Record<
    string,
    { build?: string; env_file?: string; environment?: Record<string, string>; ports?: string[] }
  >;
};

const shellBlocks = [...deployDoc.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
const commands = shellBlocks.flatMap((b) => b.replace(/\\\n\s*/g, ' ').split('\n'));
const runExamples = commands.filter((c) => /^docker run /.test(c));
const composeExamples = commands.filter((c) => /^docker compose up\b/.test(c));
/** The block the docs say to add to `.env` for the web chat (every line `KEY=value`). */
const webChatEnvBlock = shellBlocks.find(
  (b) =>
    b.includes('WEB_CHAT=true') &&
    b
      .trim()
      .split('\n')
      .every((l) => /^[A-Z][A-Z0-9_]*=/.test(l)),
);

/** The docs' `.env` additions with their `<placeholder>` values filled in. */
function webChatEnv(): Record<string, string> {
  const env = parseEnvFile(webChatEnvBlock ?? '');
  for (const [key, value] of Object.entries(env)) {
    if (/^<.*>$/.test(value)) env[key] = randomBytes(24).toString('base64');
  }
  return env;
}

/** A user's `.env`: `.env.example` as copied, the model (the fake), and what the docs told them to add. */
function userEnvFile(additions: Record<string, string>): string {
  return `${envExample}\n${Object.entries(additions)
    .map(([k, v]) => `${k}=${v}`)
    .join('\n')}\n`;
}

/** `${NAME:-default}` as compose interpolates it (NAME taken from an empty shell). */
const interpolate = (value: string) => value.replace(/\$\{[A-Z_]+:-([^}]*)\}/g, '$1');

/** A non-loopback IPv4 address of this machine: what a published port forwards to inside a container. */
const outsideAddress = Object.values(networkInterfaces())
  .flat()
  .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;

let folder: string;
let model: FakeOpenAI;
let discord: FakeDiscord;
let started: Started | undefined;
const schemas: string[] = [];

beforeAll(async () => {
  folder = buildImageFolder(spec);
  model = await startFakeOpenAI({ fallback: () => ({ content: 'Final Answer: fine' }) });
  discord = await startFakeDiscord();
}, 60_000);

afterEach(async () => {
  if (started && started.child.exitCode === null) {
    started.child.kill('SIGKILL');
    await started.exited;
  }
  started = undefined;
});

afterAll(async () => {
  if (testDatabaseUrl) for (const schema of schemas) await dropSchema(testDatabaseUrl, schema);
  await model?.close();
  await discord?.close();
});

/** The container's environment with its ports mapped to free ones here and WORKDIR paths into the folder. */
async function hostSide(container: Record<string, string>) {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(container)) env[k] = inFolder(v, spec.workdir, folder);
  const ports: Record<string, number> = {};
  for (const key of ['PORT', 'HEALTH_PORT'] as const) {
    if (container[key]?.trim()) {
      ports[key] = await freePort();
      env[key] = String(ports[key]);
    }
  }
  return { env, ports };
}

/** Starts the image's command and waits for `/healthz` on HEALTH_PORT, then asserts the health check passes. */
async function startHealthy(container: Record<string, string>) {
  expect(
    container.HEALTH_PORT?.trim(),
    'HEALTH_PORT in the container: a blank `HEALTH_PORT=` in .env (as .env.example has) hides the image default',
  ).toBe(spec.env.HEALTH_PORT);
  const { env, ports } = await hostSide(container);
  started = startAsImage(spec, folder, env);
  const exited = () => started!.child.exitCode !== null;
  const health = `http://127.0.0.1:${ports.HEALTH_PORT}`;
  await waitForHttp(`${health}/readyz`, (status) => status === 200, { exited, timeoutMs: 60_000 }).catch(
    (err: Error) => {
      throw new Error(`${err.message}\n${started!.output()}`);
    },
  );
  expect(await runHealthCheck(spec, env)).toBe(0);
  return { env, ports, health };
}

/** What a browser through the published PORT, and Prometheus on HEALTH_PORT, get. */
async function expectReachableWebChat(
  ports: Record<string, number>,
  health: string,
  env: Record<string, string>,
) {
  expect(started!.output()).toMatch(/"host":"0\.0\.0\.0"/);
  // The start line says so too, rather than naming only the loopback address.
  expect(started!.output()).toContain(`thinkthread: web chat on every interface (0.0.0.0:${ports.PORT})`);
  const host = outsideAddress ?? '127.0.0.1';
  const web = `http://${host}:${ports.PORT}`;
  const page = await fetch(`${web}/`);
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  // The public PORT: readiness without its reasons, and no metrics without METRICS_TOKEN.
  expect(await (await fetch(`${web}/readyz`)).json()).toEqual({ status: 'ready' });
  expect((await fetch(`${web}/metrics`)).status).toBe(env.METRICS_TOKEN ? 401 : 404);
  // HEALTH_PORT, the operator's: the reasons and the metrics.
  expect(await (await fetch(`${health}/readyz`)).json()).toMatchObject({
    status: 'ready',
    checks: { web: 'ok' },
  });
  expect((await fetch(`${health}/metrics`)).status).toBe(200);
}

describe('the image', () => {
  it('sets only thinkthread settings, a HEALTH_PORT apart from PORT, and the web chat on every interface', () => {
    for (const name of Object.keys(spec.env)) expect(CONFIG_KEYS, name).toContain(name);
    expect(spec.env).toMatchObject({ WEB_HOST: '0.0.0.0' });
    expect(Number(spec.env.HEALTH_PORT)).toBeGreaterThan(0);
    expect(spec.env.HEALTH_PORT).not.toBe(spec.env.PORT);
    expect(spec.expose.map(String).sort()).toEqual([spec.env.PORT, spec.env.HEALTH_PORT].sort());
    expect(spec.healthScript).toContain('process.env.HEALTH_PORT');
  });

  it('refuses to start a web chat open to anyone, naming what to set', { timeout: 60_000 }, async () => {
    const container = { ...spec.env, OPENAI_BASE_URL: model.url, WEB_CHAT: 'true' };
    started = startAsImage(spec, folder, (await hostSide(container)).env);
    expect(await started.exited).toBe(1);
    expect(started.output()).toContain('WEB_CHAT_TOKEN');
    expect(started.output()).toContain('WEB_HOST=0.0.0.0');
  });
});

describe('docs/deploy.md', () => {
  it('has docker run and compose examples, and a .env block for the web chat', () => {
    expect(runExamples.length).toBeGreaterThanOrEqual(2);
    expect(composeExamples.length).toBeGreaterThanOrEqual(1);
    expect(webChatEnvBlock).toBeDefined();
    for (const key of Object.keys(webChatEnv())) expect(CONFIG_KEYS, key).toContain(key);
  });

  for (const example of runExamples) {
    const run = parseDockerRun(example);
    // A published PORT is for the web chat (the .env block); without one, the bot only connects out (Discord).
    const web = run.published.length > 0;
    it(`\`${example}\` gives a healthy container${web ? ' and a reachable web chat' : ''}`, {
      timeout: 90_000,
    }, async () => {
      expect(run.image).toBe('thinkthread');
      expect(run.envFiles).toEqual(['.env']);
      const additions: Record<string, string> = web
        ? { OPENAI_BASE_URL: model.url, ...webChatEnv() }
        : {
            OPENAI_BASE_URL: model.url,
            DISCORD_TOKEN: 'discord-docker-secret-123456',
            DISCORD_API_URL: discord.apiUrl,
          };
      const container = { ...spec.env, ...parseEnvFile(userEnvFile(additions)), ...run.env };
      if (web) expect(run.published).toEqual([Number(container.PORT)]);
      const { env, ports, health } = await startHealthy(container);
      if (web) await expectReachableWebChat(ports, health, env);
    });
  }

  it('`docker compose up` gives a healthy bot on Postgres and a reachable web chat', {
    timeout: 90_000,
  }, async () => {
    const bot = compose.services.bot!;
    expect([bot.build, bot.env_file]).toEqual(['.', '.env']);
    const environment = Object.fromEntries(
      Object.entries(bot.environment ?? {}).map(([k, v]) => [k, interpolate(String(v))]),
    );
    const container = {
      ...spec.env,
      ...parseEnvFile(userEnvFile({ OPENAI_BASE_URL: model.url, ...webChatEnv() })),
      ...environment,
    };
    expect(container.DATABASE_URL).toMatch(
      /^postgres:\/\/thinkthread:thinkthread@postgres:5432\/thinkthread$/,
    );
    // The compose network's `postgres` is not here: this machine's test database stands in (SQLite without one).
    const schema = freshSchema();
    schemas.push(schema);
    container.DATABASE_URL = testDatabaseUrl
      ? withSchema(testDatabaseUrl, schema)
      : `sqlite:${spec.workdir}/data/compose.db`;
    expect((bot.ports ?? []).map((p) => Number(p.split(':').at(-1)))).toEqual([Number(container.PORT)]);
    const { env, ports, health } = await startHealthy(container);
    await expectReachableWebChat(ports, health, env);
  });
});
