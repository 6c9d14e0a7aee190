import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/core/logger.js';
import { createHttpServer, type HttpServer, type ReadinessCheck } from '../../src/server/http-server.js';

const logger = createLogger({ level: 'silent', secrets: [] });

describe('the HTTP server', () => {
  let server: HttpServer | undefined;
  afterEach(async () => {
    await server?.close();
  });

  const start = async (checks: ReadinessCheck[], checkTimeoutMs?: number) => {
    server = createHttpServer({ logger, readiness: () => checks, checkTimeoutMs });
    const port = await server.listen(0, '127.0.0.1');
    return `http://127.0.0.1:${port}`;
  };

  it('answers /healthz while up, and /readyz with every check when all pass', async () => {
    const url = await start([
      { name: 'discord', check: () => undefined },
      { name: 'store', check: async () => undefined },
    ]);
    const health = await fetch(`${url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', checks: { discord: 'ok', store: 'ok' } });
  });

  it('answers /readyz with 503 and a reason naming each failing check: down, throwing or silent', async () => {
    const url = await start(
      [
        { name: 'discord', check: () => 'not connected to the Discord gateway' },
        { name: 'store', check: async () => Promise.reject(new Error('database unreachable')) },
        { name: 'slow', check: () => new Promise<undefined>(() => {}) },
        { name: 'slack', check: () => undefined },
      ],
      50,
    );
    const res = await fetch(`${url}/readyz`);
    expect(res.status).toBe(503);
    const body = (await res.json()) as { reason: string; checks: Record<string, string> };
    expect(body.reason).toBe(
      'discord: not connected to the Discord gateway; store: database unreachable; slow: no answer within 50 ms',
    );
    expect(body.checks.slack).toBe('ok');
    expect((await fetch(`${url}/healthz`)).status).toBe(200); // up, though not ready
  });

  it('serves mounted routes; unknown paths get 404 and wrong methods 405', async () => {
    server = createHttpServer({ logger, readiness: () => [] });
    server.mount('POST', '/hook', (_req, res) => {
      res.writeHead(202).end('taken');
    });
    const url = `http://127.0.0.1:${await server.listen(0, '127.0.0.1')}`;
    const posted = await fetch(`${url}/hook`, { method: 'POST', body: '{}' });
    expect([posted.status, await posted.text()]).toEqual([202, 'taken']);
    expect((await fetch(`${url}/hook`)).status).toBe(405);
    expect((await fetch(`${url}/nothing-here`)).status).toBe(404);
    expect(() => server!.mount('POST', '/hook', () => {})).toThrow(/mounted twice/);
  });

  it('answers 500 when a handler throws, and keeps serving', async () => {
    server = createHttpServer({ logger, readiness: () => [] });
    server.mount('GET', '/boom', () => {
      throw new Error('handler bug');
    });
    const url = `http://127.0.0.1:${await server.listen(0, '127.0.0.1')}`;
    const res = await fetch(`${url}/boom`);
    expect(res.status).toBe(500);
    expect(await res.text()).not.toContain('handler bug');
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
  });
});
