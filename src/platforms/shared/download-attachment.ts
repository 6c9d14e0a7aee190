import type { Attachment } from '../../core/input/types.js';
import type { Logger } from '../../core/logger.js';
import { classifyFile } from './file-kinds.js';

/** Largest image sent to a vision model. */
export const IMAGE_MAX_BYTES = 5_000_000;
/** Longest one download may take. */
export const DOWNLOAD_TIMEOUT_MS = 15_000;

/** A file attached to a message, where to fetch it, and how. */
export interface RemoteFile {
  name: string;
  /** As the platform reports it; the name's extension decides when it is missing or vague. */
  mediaType?: string | undefined;
  /** Size in bytes as the platform reports it. */
  size: number;
  url: string;
  /** e.g. the bot token for Slack; never logged. */
  headers?: Record<string, string> | undefined;
}

/** Caps of one download. */
export interface DownloadLimits {
  /** ATTACHMENT_MAX_BYTES: a text file is cut here, while downloading. */
  maxBytes: number;
  timeoutMs?: number | undefined;
  /** Cancels downloads in flight (shutdown). */
  signal?: AbortSignal | undefined;
  logger?: Logger | undefined;
}

/**
 * Downloads what the model can use of an attached file: text up to `maxBytes` (cut while streaming), images
 * up to 5 MB. Never throws: binary and unknown types, oversized images, HTTP errors and timeouts become a
 * skipped attachment with a short note.
 */
export async function downloadAttachment(file: RemoteFile, limits: DownloadLimits): Promise<Attachment> {
  const { kind, mediaType } = classifyFile(file.name, file.mediaType);
  const base = { name: file.name, mediaType, size: file.size };
  const skip = (note: string): Attachment => ({ ...base, kind: 'skipped', note });
  if (kind === 'other') return skip('binary or unknown type, not read');
  if (kind === 'image' && file.size > IMAGE_MAX_BYTES) return skip('images over 5 MB are not read');
  const timeout = AbortSignal.timeout(limits.timeoutMs ?? DOWNLOAD_TIMEOUT_MS);
  const stop = new AbortController();
  const signal = AbortSignal.any([timeout, stop.signal, ...(limits.signal ? [limits.signal] : [])]);
  try {
    const res = await fetch(file.url, { headers: file.headers, signal, redirect: 'follow' });
    if (!res.ok || !res.body) {
      await res.body?.cancel().catch(() => {});
      return skip(`could not be downloaded (HTTP ${res.status})`);
    }
    // Slack answers a request it does not authorise with its sign-in page, status 200.
    const served = res.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
    if (served === 'text/html' && mediaType !== 'text/html') {
      await res.body.cancel().catch(() => {});
      return skip('could not be downloaded (the bot may lack the permission to read files)');
    }
    const cap = kind === 'image' ? IMAGE_MAX_BYTES : limits.maxBytes;
    const { bytes, cut } = await readCapped(res.body, cap, stop);
    if (kind === 'image') {
      if (cut) return skip('images over 5 MB are not read');
      return { ...base, kind: 'image', data: bytes.toString('base64') };
    }
    if (bytes.subarray(0, 8192).includes(0)) return skip('binary content, not read');
    const text = new TextDecoder('utf-8').decode(bytes).replace(/\uFFFD$/, '');
    return { ...base, kind: 'text', text, ...(cut ? { cutAtBytes: bytes.length } : {}) };
  } catch (err) {
    limits.logger?.warn({ file: file.name, err: String(err) }, 'could not download an attachment');
    return skip(timeout.aborted ? 'the download timed out' : 'could not be downloaded');
  } finally {
    stop.abort();
  }
}

/** Reads at most `cap` bytes; past them the download is aborted, not read to its end. */
async function readCapped(
  body: ReadableStream<Uint8Array>,
  cap: number,
  stop: AbortController,
): Promise<{ bytes: Buffer; cut: boolean }> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { bytes: Buffer.concat(chunks), cut: false };
    if (total + value.length > cap) {
      chunks.push(value.subarray(0, cap - total));
      stop.abort();
      await reader.cancel().catch(() => {});
      return { bytes: Buffer.concat(chunks), cut: true };
    }
    chunks.push(value);
    total += value.length;
  }
}

/** Downloads every file at once; the order of the result is the order of `files`. */
export function downloadAll(files: readonly RemoteFile[], limits: DownloadLimits): Promise<Attachment[]> {
  return Promise.all(files.map((file) => downloadAttachment(file, limits)));
}
