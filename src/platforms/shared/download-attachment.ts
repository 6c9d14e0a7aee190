import { fetch, type Response } from 'undici';
import type { Attachment } from '../../core/input/types.js';
import type { Logger } from '../../core/logger.js';
import { BlockedAddressError, type DownloadPolicy, refusal } from './download-policy.js';
import type { DocumentLimits } from './read-document.js';
import { byteCap, fileReading, fromBytes, sizeRefusal } from './read-file-bytes.js';

export { IMAGE_MAX_BYTES } from './read-file-bytes.js';
/** Longest one download may take. */
export const DOWNLOAD_TIMEOUT_MS = 15_000;
/** Redirects followed at most, each within the policy's hosts. */
export const MAX_REDIRECTS = 3;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** A file attached to a message, where to fetch it, and how. */
export interface RemoteFile {
  name: string;
  /** As the platform reports it; the name's extension decides when it is missing or vague. */
  mediaType?: string | undefined;
  /** Size in bytes as the platform reports it. */
  size: number;
  url: string;
  /** e.g. the bot token for Slack; sent only within the policy's hosts, never logged. */
  headers?: Record<string, string> | undefined;
}

/** Caps of one download, and where it may go. */
export interface DownloadLimits {
  /** The platform's file hosts: anything else is skipped, redirects included, and never sees `headers`. */
  policy: DownloadPolicy;
  /** ATTACHMENT_MAX_BYTES: a text file is cut here, while downloading. */
  maxBytes: number;
  timeoutMs?: number | undefined;
  /** PDF and Office files: read to text within these; without them they are skipped as binary. */
  documents?: DocumentLimits | undefined;
  /** Cancels downloads in flight (shutdown). */
  signal?: AbortSignal | undefined;
  logger?: Logger | undefined;
}

/**
 * Downloads what the model can use of an attached file: text up to `maxBytes` (cut while streaming), images
 * up to 5 MB, only from the policy's hosts and public addresses. Never throws: binary and unknown types,
 * oversized images, other hosts, HTTP errors and timeouts become a skipped attachment with a short note.
 */
export async function downloadAttachment(file: RemoteFile, limits: DownloadLimits): Promise<Attachment> {
  const reading = fileReading(file.name, file.mediaType, limits.documents);
  const { mediaType } = reading;
  const base = { name: file.name, mediaType, size: file.size };
  const skip = (note: string): Attachment => ({ ...base, kind: 'skipped', note });
  const refused = sizeRefusal(reading, file.size);
  if (refused) return skip(refused);
  const { policy } = limits;
  const offHost = refusal(policy, file.url);
  if (offHost) {
    limits.logger?.warn(
      { file: file.name, host: hostOf(file.url) },
      'attachment not on the platform file hosts',
    );
    return skip(`${offHost}, not downloaded`);
  }
  const timeout = AbortSignal.timeout(limits.timeoutMs ?? DOWNLOAD_TIMEOUT_MS);
  const stop = new AbortController();
  const signal = AbortSignal.any([timeout, stop.signal, ...(limits.signal ? [limits.signal] : [])]);
  try {
    let url = file.url;
    let res: Response;
    for (let hops = 0; ; hops++) {
      res = await fetch(url, {
        headers: file.headers,
        signal,
        redirect: 'manual',
        dispatcher: policy.dispatcher,
      });
      if (!REDIRECTS.has(res.status)) break;
      await res.body?.cancel().catch(() => {});
      const location = res.headers.get('location');
      if (!location) return skip(`could not be downloaded (HTTP ${res.status})`);
      if (hops >= MAX_REDIRECTS) return skip('too many redirects, not downloaded');
      // Resolved against the address it came from, then held to the same hosts as the first request.
      url = new URL(location, url).href;
      if (refusal(policy, url)) {
        limits.logger?.warn(
          { file: file.name, host: hostOf(url) },
          'attachment redirected off the file hosts',
        );
        return skip(`redirected away from ${policy.label}, not followed`);
      }
    }
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
    const { bytes, cut } = await readCapped(res.body, byteCap(reading, limits.maxBytes), stop);
    return await fromBytes(base, reading, bytes, cut, limits.logger);
  } catch (err) {
    const blocked = blockedBy(err);
    if (blocked) {
      limits.logger?.warn({ file: file.name, err: blocked.message }, 'attachment host is not public');
      return skip('its host has a private network address, not downloaded');
    }
    limits.logger?.warn({ file: file.name, err: String(err) }, 'could not download an attachment');
    return skip(timeout.aborted ? 'the download timed out' : 'could not be downloaded');
  } finally {
    stop.abort();
  }
}

/** The host of `address`, for logs (never its path or query, which may be signed). */
function hostOf(address: string): string {
  try {
    return new URL(address).host;
  } catch {
    return 'an invalid address';
  }
}

/** The refusal behind `err`, if any: fetch wraps connection errors in a TypeError. */
function blockedBy(err: unknown): BlockedAddressError | undefined {
  let inner: unknown = err;
  for (let depth = 0; depth < 5 && inner instanceof Error; depth++) {
    if (inner instanceof BlockedAddressError) return inner;
    inner = inner.cause;
  }
  return undefined;
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
