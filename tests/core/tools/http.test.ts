import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ThinkthreadError } from '../../../src/core/errors.js';
import { fetchJson, joinUrl, ServiceError } from '../../../src/core/tools/http.js';
import { type HttpFake, startHttpFake } from '../../helpers/http-fake.js';

let fake: HttpFake | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const anything = z.unknown();
const signal = () => new AbortController().signal;

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('joinUrl', () => {
  it('keeps the path prefix of the base URL and adds the query', () => {
    expect(joinUrl('http://h/api', '/v1/search', { name: 'São Paulo', count: 1 }).href).toBe(
      'http://h/api/v1/search?name=S%C3%A3o+Paulo&count=1',
    );
    expect(joinUrl('http://h/api/', 'search').href).toBe('http://h/api/search');
  });
});

describe('fetchJson', () => {
  it('says which service could not be reached, and why', async () => {
    const url = new URL(`http://127.0.0.1:${await closedPort()}/x`);
    const error = await fetchJson(url, anything, { service: 'Example', signal: signal() }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toBeInstanceOf(ThinkthreadError);
    expect(error).toMatchObject({ code: 'service_error', name: 'ServiceError' });
    expect((error as Error).message).toBe('Could not reach Example (ECONNREFUSED).');
  });

  it('refuses an answer larger than the limit', async () => {
    fake = await startHttpFake(() => ({ data: 'z'.repeat(10_000) }));
    await expect(
      fetchJson(new URL(fake.url), anything, { service: 'Example', signal: signal(), maxBytes: 1000 }),
    ).rejects.toThrow('Example sent a response larger than 1000 bytes.');
  });

  it('names the first unexpected field of a response', async () => {
    fake = await startHttpFake(() => ({ items: [{ id: 'one' }] }));
    const shape = z.object({ items: z.array(z.object({ id: z.number() })) });
    await expect(
      fetchJson(new URL(fake.url), shape, { service: 'Example', signal: signal() }),
    ).rejects.toThrow(/^Example sent an unexpected response \(.+ at items\.0\.id\)\.$/);
  });

  it('redacts secrets from an error excerpt and keeps it short', async () => {
    fake = await startHttpFake((_req, res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: `bad key sk-secret-value ${'padding '.repeat(100)}` }));
    });
    const error = (await fetchJson(new URL(fake.url), anything, {
      service: 'Example',
      signal: signal(),
      secrets: ['sk-secret-value', undefined],
    }).catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(/^Example answered HTTP 400: \{"message":"bad key \[redacted\] padding/);
    expect(error.message).not.toContain('sk-secret-value');
    expect(error.message.length).toBeLessThan(300);
  });

  it('rethrows the reason of an abort unchanged', async () => {
    const reason = new Error('run cancelled');
    const controller = new AbortController();
    // Aborted once the request is in flight: the server got it and never answers.
    fake = await startHttpFake(() => {
      controller.abort(reason);
      return new Promise(() => {});
    });
    const pending = fetchJson(new URL(fake.url), anything, { service: 'Example', signal: controller.signal });
    await expect(pending).rejects.toBe(reason);
  });
});
