import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request seen by a fake HTTP service. */
export interface SeenRequest {
  method: string;
  url: URL;
  headers: IncomingMessage['headers'];
  body: string;
}

/** Handles one request; return value is sent as JSON with status 200 unless `res` was used directly. */
export type FakeHandler = (req: SeenRequest, res: ServerResponse) => unknown | Promise<unknown>;

/** A local HTTP server for faking an outside API; records every request. */
export interface HttpFake {
  url: string;
  requests: SeenRequest[];
  close(): Promise<void>;
}

/** Starts a loopback HTTP server that answers with `handler`. */
export async function startHttpFake(handler: FakeHandler): Promise<HttpFake> {
  const requests: SeenRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const seen: SeenRequest = {
        method: req.method ?? 'GET',
        url: new URL(req.url ?? '/', 'http://fake.local'),
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(seen);
      try {
        const result = await handler(seen, res);
        if (!res.headersSent && !res.writableEnded) {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify(result ?? {}));
        }
      } catch (err) {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: String(err) }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
