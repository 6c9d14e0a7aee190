import type { IncomingMessage } from 'node:http';
import { Response } from 'undici';
import { z } from 'zod';
import { formatBytes } from '../../core/input/prepare-input.js';
import { type BodyResult, readJson } from './request-body.js';

/** The longest question the page sends. */
export const MAX_QUESTION_CHARS = 8000;

/**
 * The header a question with a file carries. A form on another site can post multipart/form-data without
 * asking, but cannot set a header of its own without the browser first asking this server (CORS
 * preflight), which it never allows.
 */
export const UPLOAD_HEADER = 'x-thinkthread-upload';

/** Bytes of a form besides its file: the question, the field names and the part boundaries. */
const FORM_OVERHEAD_BYTES = 64 * 1024;
/** Characters of an uploaded file's name kept. */
const MAX_NAME_CHARS = 200;

const askBody = z.object({ text: z.string().trim().min(1, 'empty question').max(MAX_QUESTION_CHARS) });

/** A file sent with a question. */
export interface UploadedFile {
  name: string;
  /** As the browser named it; the name's extension decides when it is vague. */
  mediaType: string | undefined;
  bytes: Uint8Array;
}

/** A question as posted: its text (empty when a file came alone) and the file sent with it. */
export interface AskBody {
  text: string;
  file?: UploadedFile | undefined;
}

/** The sentence of a file over `maxBytes`, for the asker. */
export function tooLarge(maxBytes: number): string {
  return `That file is too large: files over ${formatBytes(maxBytes)} are not read.`;
}

/**
 * Reads `/api/ask`: JSON `{ text }` (within MAX_BODY_BYTES), or multipart/form-data with `text` and one
 * `file` of at most `maxFileBytes`, which must carry {@link UPLOAD_HEADER}. A larger body is refused (413)
 * with a sentence saying how large a file may be, before more of it is kept than the cap.
 */
export async function readAskBody(req: IncomingMessage, maxFileBytes: number): Promise<BodyResult<AskBody>> {
  const type = req.headers['content-type'] ?? '';
  if (!/^multipart\/form-data\b/i.test(type)) return readJson(req, askBody);
  if (req.headers[UPLOAD_HEADER] === undefined) {
    req.resume();
    return { ok: false, status: 403, error: 'a file must come from the chat page' };
  }
  const cap = maxFileBytes + FORM_OVERHEAD_BYTES;
  const refused = { ok: false, status: 413, error: tooLarge(maxFileBytes) } as const;
  if (Number(req.headers['content-length'] ?? 0) > cap) {
    req.resume();
    return refused;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > cap) return refused;
    chunks.push(chunk);
  }
  let form: Awaited<ReturnType<Response['formData']>>;
  try {
    form = await new Response(Buffer.concat(chunks), { headers: { 'content-type': type } }).formData();
  } catch {
    return { ok: false, status: 400, error: 'not a form' };
  }
  const text = form.get('text');
  const files = form.getAll('file').filter((f) => typeof f !== 'string');
  if (text !== null && typeof text !== 'string') return { ok: false, status: 400, error: 'text is a file' };
  const question = (text ?? '').trim();
  if (question.length > MAX_QUESTION_CHARS)
    return { ok: false, status: 400, error: `a question has at most ${MAX_QUESTION_CHARS} characters` };
  if (files.length > 1) return { ok: false, status: 400, error: 'Send one file per question.' };
  const [file] = files;
  if (!file) {
    if (!question) return { ok: false, status: 400, error: 'empty question' };
    return { ok: true, value: { text: question } };
  }
  if (file.size > maxFileBytes) return refused;
  return {
    ok: true,
    value: {
      text: question,
      file: {
        name: fileName(file.name),
        mediaType: file.type || undefined,
        bytes: new Uint8Array(await file.arrayBuffer()),
      },
    },
  };
}

/** The file's own name (never a path), one line, cut: it is shown on the page and kept in the chat's knowledge. */
function fileName(given: string): string {
  const base = given.split(/[\\/]/).pop() ?? '';
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return clean.slice(0, MAX_NAME_CHARS) || 'file';
}
