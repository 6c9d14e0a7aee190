import type { Readable } from 'node:stream';
import { ModelError } from '../errors.js';

/**
 * Reads a whole JSON body of at most `maxChars` characters. A larger one (a degenerate or hostile server) is
 * closed at that point and fails with a clear error instead of filling the process's memory; a body that is
 * not JSON is a SyntaxError.
 */
export async function readJsonBody(body: Readable, maxChars: number): Promise<unknown> {
  body.setEncoding('utf8');
  let text = '';
  for await (const chunk of body as AsyncIterable<string>) {
    text += chunk;
    if (text.length > maxChars) {
      body.destroy();
      throw new ModelError(
        'model_error',
        `The model server's reply was too large (over ${(maxChars / 1e6).toLocaleString('en')} million characters).`,
      );
    }
  }
  return JSON.parse(text);
}
