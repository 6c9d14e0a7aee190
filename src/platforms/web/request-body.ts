import type { IncomingMessage } from 'node:http';
import type { z } from 'zod';

/** The largest request body the web chat reads. */
export const MAX_BODY_BYTES = 32 * 1024;

/** A parsed body, or the status and sentence to answer with. */
export type BodyResult<T> = { ok: true; value: T } | { ok: false; status: number; error: string };

/** Reads a JSON body of at most MAX_BODY_BYTES and validates it with `schema`. */
export async function readJson<T>(req: IncomingMessage, schema: z.ZodType<T>): Promise<BodyResult<T>> {
  if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) {
    return { ok: false, status: 415, error: 'send JSON' };
  }
  if (Number(req.headers['content-length'] ?? 0) > MAX_BODY_BYTES) {
    req.resume();
    return { ok: false, status: 413, error: 'too large' };
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return { ok: false, status: 413, error: 'too large' };
    chunks.push(chunk);
  }
  let data: unknown;
  try {
    data = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return { ok: false, status: 400, error: 'not JSON' };
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) return { ok: false, status: 400, error: parsed.error.issues[0]?.message ?? 'invalid' };
  return { ok: true, value: parsed.data };
}
