import { open, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, resolve } from 'node:path';
import { formatBytes } from '../../core/input/prepare-input.js';
import type { Attachment } from '../../core/input/types.js';
import { byteCap, type FileLimits, fileReading, fromBytes, sizeRefusal } from '../shared/read-file-bytes.js';

/** Files that go with one question at most. */
export const MAX_ATTACHED = 5;

/** The files `/attach` read, waiting for the next question. */
export interface ConsoleAttachments {
  /** Reads the file at `path` now; the sentence says what was attached, or why nothing was. */
  add(path: string): Promise<{ ok: boolean; reply: string }>;
  /** What is attached, in a sentence. */
  list(): string;
  /** Drops what is attached; the sentence says what was dropped. */
  clear(): string;
  /** What is attached, for the question now asked; nothing is attached afterwards. */
  take(): Attachment[];
}

/**
 * The terminal's `/attach <path>`: the file is read at once with the caps of a Slack or Discord attachment
 * (see readFileBytes), and goes with the next question. A path is taken as typed (quotes around it and a
 * leading `~/` understood), relative to `cwd`.
 */
export function createConsoleAttachments(limits: FileLimits, cwd = process.cwd()): ConsoleAttachments {
  let pending: Attachment[] = [];
  const names = () => pending.map((file) => file.name).join(', ');
  return {
    async add(typed) {
      const path = localPath(typed, cwd);
      if (!path) return { ok: false, reply: 'Name the file to attach: /attach <path>.' };
      if (pending.length >= MAX_ATTACHED) {
        return {
          ok: false,
          reply: `At most ${MAX_ATTACHED} files go with one question; /detach drops them.`,
        };
      }
      const name = basename(path);
      const read = await readLocal(path, name, limits);
      if ('problem' in read) return { ok: false, reply: read.problem };
      if (read.file.kind === 'skipped')
        return { ok: false, reply: `Not attached: ${name}: ${read.file.note}.` };
      pending.push(read.file);
      return {
        ok: true,
        reply: `Attached ${name} (${formatBytes(read.file.size)}); it goes with your next question.`,
      };
    },
    list: () =>
      pending.length > 0
        ? `Attached, for your next question: ${names()}.`
        : 'Nothing is attached. /attach <path> sends a file with your next question.',
    clear() {
      const dropped = pending.length > 0 ? `Dropped ${names()}.` : 'Nothing was attached.';
      pending = [];
      return dropped;
    },
    take() {
      const taken = pending;
      pending = [];
      return taken;
    },
  };
}

/** The path typed after `/attach`: surrounding quotes dropped, `~/` for the home folder. */
function localPath(typed: string, cwd: string): string | undefined {
  const bare = typed.trim().replace(/^(["'])(.*)\1$/, '$2');
  if (!bare) return undefined;
  return resolve(cwd, bare.startsWith('~/') ? `${homedir()}${bare.slice(1)}` : bare);
}

/** Reads at most the cap of the file's kind (one byte more, to know it was longer). */
async function readLocal(
  path: string,
  name: string,
  limits: FileLimits,
): Promise<{ file: Attachment } | { problem: string }> {
  let size: number;
  try {
    const found = await stat(path);
    if (found.isDirectory()) return { problem: `${name} is a folder; attach a file.` };
    size = found.size;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { problem: code === 'ENOENT' ? `No such file: ${path}.` : `Could not read ${path}.` };
  }
  const reading = fileReading(name, undefined, limits.documents);
  const base = { name, mediaType: reading.mediaType, size };
  const refused = sizeRefusal(reading, size);
  if (refused) return { file: { ...base, kind: 'skipped', note: refused } };
  const cap = byteCap(reading, limits.maxBytes);
  let bytes: Buffer;
  try {
    const handle = await open(path, 'r');
    try {
      const buffer = Buffer.alloc(Math.min(size, cap) + 1);
      let filled = 0;
      for (;;) {
        const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
        filled += bytesRead;
        if (bytesRead === 0 || filled === buffer.length) break;
      }
      bytes = buffer.subarray(0, filled);
    } finally {
      await handle.close();
    }
  } catch {
    return { problem: `Could not read ${path}.` };
  }
  const cut = bytes.length > cap;
  return { file: await fromBytes(base, reading, cut ? bytes.subarray(0, cap) : bytes, cut, limits.logger) };
}
