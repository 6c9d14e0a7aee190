import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Deployment } from 'kubernetes-models/apps/v1';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, Secret, Service } from 'kubernetes-models/v1';
import { afterAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { CONFIG_KEYS } from '../../src/config.js';
import { type FakeOpenAI, startFakeOpenAI } from '../fakes/openai-server.js';
import { freePort } from '../helpers/free-port.js';
import { waitForHttp } from '../helpers/wait-for-http.js';
import { dropSchema, freshSchema, testDatabaseUrl, withSchema } from '../store/postgres-test-db.js';
import {
  buildImageFolder,
  canMountReadOnly,
  inFolder,
  parseDockerfile,
  runHealthCheck,
  type Started,
  startAsImage,
} from './image.js';

// deploy/kubernetes/ checked against the Kubernetes resource schemas (kubernetes-models), against each other
// (selectors, named ports, the Secret's keys), against the image and the settings, and run: the pod's
// environment started as the image starts it, its probes and its Service's port asked as the kubelet and a
// client would.

const dir = 'deploy/kubernetes';
const deployDoc = readFileSync('docs/deploy.md', 'utf8');
const image = parseDockerfile(readFileSync('Dockerfile', 'utf8'));

type Manifest = { apiVersion: string; kind: string; metadata: { name: string }; [key: string]: unknown };
const files = readdirSync(dir).filter((f) => f.endsWith('.yaml'));
const manifests = new Map<string, Manifest[]>(
  files.map((f) => [
    f,
    parseAllDocuments(readFileSync(join(dir, f), 'utf8')).map((d) => d.toJS() as Manifest),
  ]),
);
const all = [...manifests.values()].flat();
const one = <T>(kind: string) => {
  const found = all.filter((m) => m.kind === kind);
  expect(found, kind).toHaveLength(1);
  return found[0] as unknown as T;
};

const models: Record<string, (m: Manifest) => { validate(): void }> = {
  'apps/v1 Deployment': (m) => new Deployment(m as never),
  'v1 Service': (m) => new Service(m as never),
  'v1 ConfigMap': (m) => new ConfigMap(m as never),
  'v1 Secret': (m) => new Secret(m as never),
  'policy/v1 PodDisruptionBudget': (m) => new PodDisruptionBudget(m as never),
  'networking.k8s.io/v1 Ingress': (m) => new Ingress(m as never),
};

const deployment = one<Deployment>('Deployment');
const service = one<Service>('Service');
const pdb = one<PodDisruptionBudget>('PodDisruptionBudget');
const configMap = one<ConfigMap>('ConfigMap');
const secret = one<Secret>('Secret');
const ingress = one<Ingress>('Ingress');
const pod = deployment.spec!.template.spec!;
const container = pod.containers[0]!;
const envValue = (name: string) => container.env?.find((e) => e.name === name)?.value;
const portNumber = (port: string | number) =>
  typeof port === 'number' ? port : container.ports?.find((p) => p.name === port)?.containerPort;
const secretRefs = (container.env ?? []).flatMap((e) =>
  e.valueFrom?.secretKeyRef ? [{ env: e.name, ...e.valueFrom.secretKeyRef }] : [],
);
const secretKeys = Object.keys(secret.stringData ?? {});

describe('deploy/kubernetes', () => {
  it('every manifest is valid against the Kubernetes resource schemas', () => {
    expect(all.length).toBeGreaterThanOrEqual(5);
    for (const manifest of all) {
      if (manifest.kind === 'Kustomization') continue;
      const model = models[`${manifest.apiVersion} ${manifest.kind}`];
      expect(model, `${manifest.apiVersion} ${manifest.kind}`).toBeDefined();
      expect(() => model!(manifest).validate(), `${manifest.kind} ${manifest.metadata.name}`).not.toThrow();
    }
  });

  it('kustomization.yaml applies every manifest but the examples (the Secret, the Ingress)', () => {
    const kustomization = one<{ resources: string[] }>('Kustomization');
    for (const resource of kustomization.resources)
      expect(existsSync(join(dir, resource)), resource).toBe(true);
    expect(files.filter((f) => f.includes('.example.')).sort()).toEqual([
      'ingress.example.yaml',
      'secret.example.yaml',
    ]);
    expect([...kustomization.resources].sort()).toEqual(
      files.filter((f) => f !== 'kustomization.yaml' && !f.includes('.example.')).sort(),
    );
  });

  it('runs the image docs/deploy.md builds and loads into a local cluster, without pulling it', () => {
    expect(container.image).toBe('thinkthread:local');
    expect(container.imagePullPolicy).toBe('IfNotPresent');
    for (const step of [
      'docker build -t thinkthread:local .',
      'kind load docker-image thinkthread:local',
      'minikube image load thinkthread:local',
    ]) {
      expect(deployDoc).toContain(step);
    }
  });

  it('keeps the root filesystem read-only, each folder the bot writes an emptyDir', () => {
    expect(container.securityContext).toMatchObject({
      readOnlyRootFilesystem: true,
      allowPrivilegeEscalation: false,
    });
    const volumes = new Map((pod.volumes ?? []).map((v) => [v.name, v]));
    const mounted = new Map((container.volumeMounts ?? []).map((m) => [m.mountPath, m.name]));
    for (const path of [`${image.workdir}/data`, '/tmp']) {
      expect(volumes.get(mounted.get(path) ?? '')?.emptyDir, path).toBeDefined();
    }
  });

  it('the Ingress example routes its host, over TLS, to the Service, one browser to one replica', () => {
    const rule = ingress.spec!.rules![0]!;
    const backend = rule.http!.paths[0]!.backend.service!;
    expect(backend.name).toBe(service.metadata!.name);
    expect(service.spec!.ports!.map((p) => p.name)).toContain(backend.port!.name);
    expect(ingress.spec!.tls![0]!.hosts).toEqual([rule.host]);
    expect(ingress.metadata!.annotations!['nginx.ingress.kubernetes.io/affinity']).toBe('cookie');
    expect(deployDoc).toContain(`kubectl apply -f ${dir}/ingress.example.yaml`);
  });

  it('runs N replicas as the image does: its ports, its user, the shared settings', () => {
    expect(deployment.spec!.replicas).toBeGreaterThanOrEqual(2);
    expect(envValue('PORT')).toBe(image.env.PORT);
    expect(envValue('HEALTH_PORT')).toBe(image.env.HEALTH_PORT);
    expect(envValue('WEB_HOST')).toBe(image.env.WEB_HOST);
    expect(portNumber('http')).toBe(Number(image.env.PORT));
    expect(portNumber('health')).toBe(Number(image.env.HEALTH_PORT));
    expect(readFileSync('Dockerfile', 'utf8')).toMatch(/^USER node$/m);
    expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
    // Longer than the grace the bot gives answers in flight, so the kill never cuts one short.
    const grace = Number(configMap.data?.SHUTDOWN_GRACE_MS ?? 8000);
    expect((pod.terminationGracePeriodSeconds ?? 30) * 1000).toBeGreaterThan(grace + 5000);
  });

  it('probes liveness on /healthz and readiness on /readyz at HEALTH_PORT', () => {
    const probe = (p: typeof container.livenessProbe) => [
      p?.httpGet?.path,
      portNumber(p?.httpGet?.port ?? ''),
    ];
    const health = Number(envValue('HEALTH_PORT'));
    expect(probe(container.livenessProbe)).toEqual(['/healthz', health]);
    expect(probe(container.readinessProbe)).toEqual(['/readyz', health]);
    expect(probe(container.startupProbe)).toEqual(['/healthz', health]);
    expect(deployment.spec!.template.metadata!.annotations?.['prometheus.io/port']).toBe(String(health));
  });

  it('the Service and the PodDisruptionBudget select the pods, and the Service exposes PORT only', () => {
    const labels = deployment.spec!.template.metadata!.labels!;
    expect(deployment.spec!.selector.matchLabels).toEqual(labels);
    expect(labels).toMatchObject(service.spec!.selector!);
    expect(labels).toMatchObject(pdb.spec!.selector!.matchLabels!);
    expect(pdb.spec!.maxUnavailable ?? 0).toBeLessThan(deployment.spec!.replicas!);
    expect(service.spec!.ports!.map((p) => portNumber(p.targetPort ?? p.port))).toEqual([
      Number(envValue('PORT')),
    ]);
  });

  it('names only settings that exist, and secrets only through the Secret', () => {
    const names = [
      ...(container.env ?? []).map((e) => e.name),
      ...Object.keys(configMap.data ?? {}),
      ...secretKeys,
      // Commented settings in the ConfigMap are meant to be uncommented.
      ...[...readFileSync(join(dir, 'configmap.yaml'), 'utf8').matchAll(/^ {2}# ([A-Z][A-Z0-9_]+):/gm)].map(
        (m) => m[1]!,
      ),
    ];
    for (const name of names) expect(CONFIG_KEYS, name).toContain(name);
    expect(container.envFrom).toEqual([{ configMapRef: { name: configMap.metadata!.name } }]);
    for (const ref of secretRefs) {
      expect(ref.name).toBe(secret.metadata!.name);
      expect(ref.key).toBe(ref.env);
      expect(secretKeys, ref.key).toContain(ref.key);
    }
    expect(secretRefs.map((r) => r.key).sort()).toEqual([...secretKeys].sort());
    // Without these a replica cannot share the store or the sessions; the rest depend on the platforms used.
    const required = secretRefs.filter((r) => !r.optional).map((r) => r.key);
    expect(required.sort()).toEqual(['DATABASE_URL', 'WEB_SESSION_SECRET']);
    expect(secret.stringData!.DATABASE_URL).toMatch(/^postgres:\/\//);
    for (const key of [
      'WEB_CHAT_TOKEN',
      'WEB_SESSION_SECRET',
      'METRICS_TOKEN',
      'OPENAI_API_KEY',
      'DISCORD_TOKEN',
    ]) {
      expect(Object.keys(configMap.data ?? {}), `${key} belongs in the Secret`).not.toContain(key);
    }
  });

  it('docs/deploy.md creates the Secret with its required keys and applies this folder', () => {
    const create = /kubectl create secret generic (\S+)((?:.*\\\n)+.*)/.exec(deployDoc);
    expect(create?.[1]).toBe(secret.metadata!.name);
    const keys = [...create![2]!.matchAll(/--from-literal=([A-Z_]+)=/g)].map((m) => m[1]!);
    for (const key of keys) expect(secretKeys, key).toContain(key);
    expect(keys).toEqual(expect.arrayContaining(['DATABASE_URL', 'WEB_SESSION_SECRET']));
    expect(deployDoc).toContain(`kubectl apply -k ${dir}/`);
    for (const m of deployDoc.matchAll(/`(deploy\/[\w./-]+)`/g)) expect(existsSync(m[1]!), m[1]).toBe(true);
  });
});

describe('a pod of deploy/kubernetes, started as the image starts it, its files read-only', {
  timeout: 90_000,
}, () => {
  let model: FakeOpenAI | undefined;
  let started: Started | undefined;
  const schema = freshSchema();

  afterAll(async () => {
    if (started && started.child.exitCode === null) {
      started.child.kill('SIGKILL');
      await started.exited;
    }
    if (testDatabaseUrl) await dropSchema(testDatabaseUrl, schema);
    await model?.close();
  });

  it('passes its probes and serves the protected web chat on the Service port', async () => {
    model = await startFakeOpenAI({ fallback: () => ({ content: 'Final Answer: fine' }) });
    const folder = buildImageFolder(image);
    // The Secret as an operator fills it: change-me values become random ones, the model the fake.
    const secretEnv: Record<string, string> = {};
    for (const [key, value] of Object.entries(secret.stringData ?? {})) {
      secretEnv[key] = value.includes('change-me') ? randomBytes(24).toString('base64') : value;
    }
    delete secretEnv.OPENAI_API_KEY;
    // The cluster's Postgres is not here: this machine's test database stands in (SQLite without one).
    secretEnv.DATABASE_URL = testDatabaseUrl
      ? withSchema(testDatabaseUrl, schema)
      : `sqlite:${image.workdir}/data/pod.db`;
    // Kubernetes: the image's ENV, then envFrom, then env (a Secret's "" stays an empty, so unset, value).
    const podEnv: Record<string, string> = { ...image.env, ...(configMap.data ?? {}) };
    for (const e of container.env ?? []) {
      const value = e.value ?? secretEnv[e.valueFrom?.secretKeyRef?.key ?? ''];
      if (value !== undefined) podEnv[e.name] = inFolder(value, image.workdir, folder);
    }
    podEnv.OPENAI_BASE_URL = model.url;
    // A pod has its own network: its two ports become free ones here.
    const http = await freePort();
    const health = await freePort();
    podEnv.PORT = String(http);
    podEnv.HEALTH_PORT = String(health);
    // readOnlyRootFilesystem: the image's folder read-only but for its emptyDir mounts (/tmp is this machine's).
    const writable = (container.volumeMounts ?? [])
      .filter(
        (m) =>
          container.securityContext?.readOnlyRootFilesystem && m.mountPath.startsWith(`${image.workdir}/`),
      )
      .map((m) => inFolder(m.mountPath, image.workdir, folder));
    const readOnly = canMountReadOnly();
    if (!readOnly)
      console.warn('The pod runs with its folder writable: `unshare -rm` is not available here.');
    started = startAsImage(image, folder, podEnv, readOnly ? writable : undefined);
    const exited = () => started!.child.exitCode !== null;

    const probeUrl = (p: typeof container.livenessProbe) => `http://127.0.0.1:${health}${p!.httpGet!.path}`;
    for (const probe of [container.startupProbe, container.livenessProbe, container.readinessProbe]) {
      await waitForHttp(probeUrl(probe), (status) => status === 200, { exited, timeoutMs: 60_000 }).catch(
        (err: Error) => {
          throw new Error(`${err.message}\n${started!.output()}`);
        },
      );
    }
    expect(await runHealthCheck(image, podEnv)).toBe(0);
    const page = await fetch(`http://127.0.0.1:${http}/`);
    expect([page.status, page.headers.get('content-type')]).toEqual([
      200,
      expect.stringMatching(/^text\/html/),
    ]);
    expect(started.output()).toMatch(/"host":"0\.0\.0\.0"/);
    // The Service's port is public: readiness without reasons, metrics only with METRICS_TOKEN.
    expect(await (await fetch(`http://127.0.0.1:${http}/readyz`)).json()).toEqual({ status: 'ready' });
    expect((await fetch(`http://127.0.0.1:${http}/metrics`)).status).toBe(401);
    const metrics = await fetch(`http://127.0.0.1:${http}/metrics`, {
      headers: { authorization: `Bearer ${podEnv.METRICS_TOKEN}` },
    });
    expect(metrics.status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${health}/metrics`)).status).toBe(200);
    // It ran with nothing of the image writable but its volumes.
    if (readOnly) expect(writable).toEqual([`${folder}/data`]);
  });
});
