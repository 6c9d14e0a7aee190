import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/core/logger.js';
import { createHttpServer, type HttpServer, type ReadinessCheck } from '../../src/server/http-server.js';

const logger = createLogger({ level: 'silent', secrets: [] });
const TOKEN = 'metrics-token-0123456789abcdef';
const SCRAPE = '# HELP thinkthread_up 1\nthinkthread_up 1\n';

/**
 * A public bind is decided by the host the listener was given (0.0.0.0 here), not by who connects, so
 * these tests reach a "public" listener over 127.0.0.1.
 */
describe('what the HTTP server shows on a public bind', () => {
  let server: HttpServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const build = (checks: ReadinessCheck[], token?: string) => {
    server = createHttpServer({ logger, readiness: () => checks });
    server.mount(
      'GET',
      '/metrics',
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' }).end(SCRAPE);
      },
      { internal: { token } },
    );
    return server;
  };
  const on = async (s: HttpServer, host: string, internal = false) =>
    `http://127.0.0.1:${await s.listen(0, host, { internal })}`;
  const down: ReadinessCheck[] = [{ name: 'discord', check: () => 'not connected to the Discord gateway' }];

  it('answers /metrics 404 on a public PORT without METRICS_TOKEN, whatever the method, and serves it on HEALTH_PORT', async () => {
    const s = build([]);
    const publicUrl = await on(s, '0.0.0.0');
    const healthUrl = await on(s, '0.0.0.0', true);
    for (const method of ['GET', 'HEAD', 'POST']) {
      const res = await fetch(`${publicUrl}/metrics`, { method });
      expect([method, res.status]).toEqual([method, 404]);
    }
    const withToken = await fetch(`${publicUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(withToken.status).toBe(404);
    const health = await fetch(`${healthUrl}/metrics`);
    expect([health.status, await health.text()]).toEqual([200, SCRAPE]);
  });

  it('serves /metrics on a loopback PORT bind without a token', async () => {
    const url = await on(build([], TOKEN), '127.0.0.1');
    const res = await fetch(`${url}/metrics`);
    expect([res.status, await res.text()]).toEqual([200, SCRAPE]);
  });

  it('asks for METRICS_TOKEN as a bearer token on a public PORT: 401 with WWW-Authenticate otherwise', async () => {
    const url = await on(build([], TOKEN), '0.0.0.0');
    const attempts: Record<string, string | undefined> = {
      none: undefined,
      wrong: `Bearer ${'x'.repeat(TOKEN.length)}`,
      prefix: `Bearer ${TOKEN.slice(0, -1)}`,
      longer: `Bearer ${TOKEN}0`,
      basic: `Basic ${Buffer.from(`user:${TOKEN}`).toString('base64')}`,
      bare: TOKEN,
    };
    for (const [what, authorization] of Object.entries(attempts)) {
      const res = await fetch(`${url}/metrics`, authorization ? { headers: { authorization } } : {});
      expect([what, res.status, res.headers.get('www-authenticate')]).toEqual([what, 401, 'Bearer']);
      expect(await res.text()).not.toContain('thinkthread_up');
    }
    const ok = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect([ok.status, await ok.text()]).toEqual([200, SCRAPE]);
    const lower = await fetch(`${url}/metrics`, { headers: { authorization: `bearer ${TOKEN}` } });
    expect(lower.status).toBe(200);
  });

  it('says only ready or not ready on /readyz of a public bind; reasons stay on loopback and HEALTH_PORT', async () => {
    const s = build(down);
    const publicUrl = await on(s, '0.0.0.0');
    const healthUrl = await on(s, '0.0.0.0', true);
    const terse = await fetch(`${publicUrl}/readyz`);
    expect([terse.status, await terse.json()]).toEqual([503, { status: 'not ready' }]);
    const detailed = await fetch(`${healthUrl}/readyz`);
    expect(detailed.status).toBe(503);
    expect(await detailed.json()).toMatchObject({ reason: 'discord: not connected to the Discord gateway' });
    await s.close();

    const loopback = build(down);
    const loopbackUrl = await on(loopback, '127.0.0.1');
    expect(await (await fetch(`${loopbackUrl}/readyz`)).json()).toMatchObject({
      checks: { discord: 'not connected to the Discord gateway' },
    });
  });

  it('says ready without its checks on a public bind', async () => {
    const url = await on(build([{ name: 'store', check: () => undefined }]), '0.0.0.0');
    const res = await fetch(`${url}/readyz`);
    expect([res.status, await res.json()]).toEqual([200, { status: 'ready' }]);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
  });
});
