import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { freePort } from './helpers/free-port.js';
import { waitForHttp } from './helpers/wait-for-http.js';

// This machine runs no cluster, so the manifests are checked for what a cluster would need of them, and the
// read-only root filesystem they ask for is tried on the bot itself.

const DIR = 'deploy/kubernetes';
const root = resolve(import.meta.dirname, '..');
const deployDoc = readFileSync('docs/deploy.md', 'utf8');

// biome-ignore lint/suspicious/noExplicitAny: parsed YAML, read as the manifests' schema says
type Doc = Record<string, any>;
const manifests = new Map<string, Doc[]>(
  readdirSync(DIR)
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => {
      const docs = parseAllDocuments(readFileSync(join(DIR, f), 'utf8'));
      for (const d of docs) if (d.errors.length > 0) throw new Error(`${f}: ${d.errors[0]!.message}`);
      return [f, docs.map((d) => d.toJS() as Doc)];
    }),
);
const one = (file: string) => manifests.get(file)![0]!;
const deployment = one('deployment.yaml');
const pod = deployment.spec.template.spec;
const container = pod.containers[0];

describe('deploy/kubernetes', () => {
  it('parses, and the kustomization applies every manifest but the examples', () => {
    const kustomization = one('kustomization.yaml');
    for (const file of kustomization.resources as string[])
      expect(existsSync(join(DIR, file)), file).toBe(true);
    const examples = [...manifests.keys()].filter((f) => f.includes('.example.'));
    expect(examples).toEqual(expect.arrayContaining(['ingress.example.yaml', 'secret.example.yaml']));
    for (const file of manifests.keys()) {
      if (file === 'kustomization.yaml') continue;
      expect(kustomization.resources.includes(file), file).toBe(!examples.includes(file));
    }
  });

  it('runs the image the docs say to load into a local cluster, without pulling it again', () => {
    expect(container.image).toBe('thinkthread:local');
    expect(container.imagePullPolicy).toBe('IfNotPresent');
    expect(deployDoc).toContain('docker build -t thinkthread:local .');
    expect(deployDoc).toContain('kind load docker-image thinkthread:local');
    expect(deployDoc).toContain('minikube image load thinkthread:local');
  });

  it('keeps the root filesystem read-only, with a volume for each folder the bot writes', () => {
    expect(container.securityContext.readOnlyRootFilesystem).toBe(true);
    const volumes = new Map((pod.volumes as Doc[]).map((v) => [v.name, v]));
    const mounts = new Map((container.volumeMounts as Doc[]).map((m) => [m.mountPath, m.name]));
    for (const path of ['/app/data', '/tmp']) {
      expect(mounts.has(path), path).toBe(true);
      expect(volumes.get(mounts.get(path))?.emptyDir, path).toBeDefined();
    }
  });

  it('the Ingress routes to the Service by its name and port, keeping a browser on one replica', () => {
    const service = one('service.yaml');
    const ingress = one('ingress.example.yaml');
    const backend = ingress.spec.rules[0].http.paths[0].backend.service;
    expect(backend.name).toBe(service.metadata.name);
    expect(service.spec.ports.map((p: Doc) => p.name)).toContain(backend.port.name);
    expect(ingress.metadata.annotations['nginx.ingress.kubernetes.io/affinity']).toBe('cookie');
    expect(ingress.spec.tls[0].hosts).toEqual([ingress.spec.rules[0].host]);
  });
});

/** Whether this machine lets an unprivileged user and mount namespace be made (to mount the app read-only). */
const canUnshare = spawnSync('unshare', ['-rm', 'true']).status === 0;
const readOnly = canUnshare ? it : it.skip;
if (!canUnshare) console.warn('Skipping the read-only run: `unshare -rm` is not available here.');

describe('the bot on a read-only root filesystem', () => {
  readOnly(
    'starts and serves the web chat with only /tmp and the data folder writable',
    {
      timeout: 60_000,
    },
    async () => {
      // As in the image: dist/ is compiled before the files become read-only.
      expect(spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: root }).status).toBe(0);
      const [port, health] = [await freePort(), await freePort()];
      const script = [
        'set -e',
        `mount --bind "${root}" "${root}"`,
        `mount -o remount,bind,ro "${root}"`,
        'mount -t tmpfs tmpfs /tmp',
        'mkdir /tmp/data',
        `cd "${root}"`,
        `if touch dist/.write-probe 2>/dev/null; then echo "${root} is writable"; exit 3; fi`,
        'exec node scripts/start.mjs',
      ].join('\n');
      const child = spawn('unshare', ['-rm', 'sh', '-c', script], {
        env: {
          PATH: process.env.PATH ?? '',
          OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
          WEB_CHAT: 'true',
          WEB_HOST: '127.0.0.1',
          PORT: String(port),
          HEALTH_PORT: String(health),
          DATABASE_URL: 'sqlite:/tmp/data/thinkthread.db',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      for (const stream of [child.stdout, child.stderr]) stream.on('data', (d: Buffer) => (output += d));
      const exited = new Promise((done) => child.on('exit', done));
      let ended = false;
      void exited.then(() => (ended = true));
      try {
        const ready = await waitForHttp(`http://127.0.0.1:${health}/readyz`, (status) => status === 200, {
          timeoutMs: 45_000,
          exited: () => ended,
        }).catch((err: Error) => {
          throw new Error(`${err.message}\n${output}`);
        });
        expect(JSON.parse(ready.body)).toMatchObject({ status: 'ready' });
        expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(200);
      } finally {
        child.kill('SIGTERM');
        await exited;
      }
    },
  );
});
