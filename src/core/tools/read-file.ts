import { constants, type Dirent, type Stats } from 'node:fs';
import { type FileHandle, open, readdir, readlink, realpath, stat } from 'node:fs/promises';
import { basename, isAbsolute, relative, resolve, sep } from 'node:path';
import { z } from 'zod';
import { defineTool, type ToolFactory, ToolInputError } from './define-tool.js';
import { createDenyList } from './deny-list.js';

/** Most characters of a file shown; it stays under the agent's observation limit with room for the marker. */
export const MAX_FILE_CHARS = 7000;
const SNIFF_BYTES = 8192;
const LISTED_ENTRIES = 20;

/** What `read_file` reads from the configuration. */
export interface ReadFileSettings {
  /** The folder files are read from, relative to the working directory or absolute. */
  WORKSPACE_DIR: string;
  /** Larger files are refused. */
  READ_FILE_MAX_BYTES: number;
  /** File names never read (globs, any case; `!` allows again), e.g. `.env*` or `*.pem`. */
  READ_FILE_DENY: readonly string[];
}

/** `read_file`: reads a text file under WORKSPACE_DIR, refusing anything that leads outside it. */
export const readFileTool: ToolFactory<ReadFileSettings> = (settings) => {
  const denied = createDenyList(settings.READ_FILE_DENY);
  return defineTool({
    name: 'read_file',
    description:
      'Reads a text file from the workspace folder shared with the bot. Long files are cut; ' +
      'a directory path lists its entries.',
    input: z.object({
      path: z
        .string()
        .trim()
        .min(1)
        .max(500)
        .describe('Path relative to the workspace folder, e.g. "notes/todo.md"'),
    }),
    async execute({ path }) {
      if (path.includes('\0')) throw new ToolInputError('The path contains a NUL character.');
      if (isAbsolute(path)) {
        throw new ToolInputError(
          `Absolute paths are not allowed; give a path relative to the workspace, e.g. "notes.md".`,
        );
      }
      const root = resolve(process.cwd(), settings.WORKSPACE_DIR);
      if (!isInside(root, resolve(root, path))) {
        throw new ToolInputError(`"${path}" is outside the workspace; only files inside it can be read.`);
      }
      const realRoot = await realpath(root).catch(() => {
        throw new ToolInputError(`The workspace folder (${settings.WORKSPACE_DIR}) does not exist.`);
      });
      // Symlinks are followed, then the real location is checked: a link may point anywhere.
      const real = await realpath(resolve(root, path)).catch((err: NodeJS.ErrnoException) => {
        throw new ToolInputError(openProblem(path, err));
      });
      if (!isInside(realRoot, real)) {
        throw new ToolInputError(`"${path}" links to a location outside the workspace; it cannot be read.`);
      }
      if (denied(basename(path)) || denied(basename(real))) throw new ToolInputError(secretFile(path));

      // O_NONBLOCK: opening a FIFO must not hang; O_NOFOLLOW: the last part must not be swapped for a link.
      const handle = await open(real, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW).catch(
        (err: NodeJS.ErrnoException) => {
          throw new ToolInputError(openProblem(path, err));
        },
      );
      try {
        // A folder on the way may have been swapped for a link since the check: what was opened is checked.
        const opened = await openedPath(handle, real);
        const info = await handle.stat();
        if (!isInside(realRoot, opened) || !(await sameFile(opened, info))) {
          throw new ToolInputError(`"${path}" links to a location outside the workspace; it cannot be read.`);
        }
        if (denied(basename(opened))) throw new ToolInputError(secretFile(path));
        if (info.isDirectory()) return await describeDirectory(listable(handle, opened), path);
        if (!info.isFile()) throw new ToolInputError(`"${path}" is not a regular file.`);
        if (info.size > settings.READ_FILE_MAX_BYTES) {
          throw new ToolInputError(
            `"${path}" is ${bytes(info.size)}, over the ${bytes(settings.READ_FILE_MAX_BYTES)} limit for reading files.`,
          );
        }
        const content = await readAtMost(handle, info.size);
        if (content.length === 0) return `"${path}" is empty.`;
        if (looksBinary(content)) {
          return `"${path}" is a binary file (${bytes(info.size)}); its content is not shown.`;
        }
        return truncate(content.toString('utf8'));
      } finally {
        await handle.close();
      }
    },
  });
};

function secretFile(path: string): string {
  return `"${path}" may hold secrets (READ_FILE_DENY) and cannot be read.`;
}

// Linux names the file behind a descriptor; elsewhere the path is resolved again and checked by sameFile.
const FD_LINKS = process.platform === 'linux';

async function openedPath(handle: FileHandle, real: string): Promise<string> {
  return FD_LINKS ? readlink(`/proc/self/fd/${handle.fd}`) : realpath(real);
}

/** A folder read through its descriptor's link is the one opened, whatever its path points to now. */
function listable(handle: FileHandle, opened: string): string {
  return FD_LINKS ? `/proc/self/fd/${handle.fd}` : opened;
}

async function sameFile(path: string, info: Stats): Promise<boolean> {
  const now = await stat(path).catch(() => undefined);
  return now !== undefined && now.dev === info.dev && now.ino === info.ino;
}

function isInside(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

function openProblem(path: string, err: NodeJS.ErrnoException): string {
  switch (err.code) {
    case 'ENOENT':
    case 'ENOTDIR':
      return `There is no file "${path}" in the workspace.`;
    case 'EACCES':
    case 'EPERM':
      return `Permission denied for "${path}".`;
    case 'ELOOP':
      return `"${path}" is a link loop.`;
    default:
      return `Cannot open "${path}" (${err.code ?? err.message}).`;
  }
}

async function describeDirectory(real: string, path: string): Promise<string> {
  const entries: Dirent[] = await readdir(real, { withFileTypes: true });
  if (entries.length === 0) return `"${path}" is an empty directory.`;
  const names = entries.map((e) => (e.isDirectory() ? `${e.name}/` : e.name)).sort();
  const shown = names.slice(0, LISTED_ENTRIES).join(', ');
  const more = names.length > LISTED_ENTRIES ? ` and ${names.length - LISTED_ENTRIES} more` : '';
  return `"${path}" is a directory with ${names.length} entries: ${shown}${more}. Read a file inside it by its path.`;
}

// Reads no more than the size seen at stat time, even if the file grows meanwhile.
async function readAtMost(handle: FileHandle, size: number): Promise<Buffer> {
  const buffer = Buffer.alloc(size);
  let filled = 0;
  while (filled < size) {
    const { bytesRead } = await handle.read(buffer, filled, size - filled, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return buffer.subarray(0, filled);
}

// A NUL byte, or many control characters, in the first few KB: the usual sign of a binary format.
function looksBinary(content: Buffer): boolean {
  const head = content.subarray(0, SNIFF_BYTES);
  let control = 0;
  for (const byte of head) {
    if (byte === 0) return true;
    if (byte < 32 && byte !== 9 && byte !== 10 && byte !== 13 && byte !== 12 && byte !== 27) control++;
  }
  return control / head.length > 0.1;
}

function truncate(text: string): string {
  if (text.length <= MAX_FILE_CHARS) return text;
  let end = MAX_FILE_CHARS;
  // Prefer ending on a line break, and never split a surrogate pair.
  const lineEnd = text.lastIndexOf('\n', end);
  if (lineEnd > MAX_FILE_CHARS - 500) end = lineEnd;
  else if (/[\uD800-\uDBFF]/.test(text.charAt(end - 1))) end--;
  const rest = text.length - end;
  return `${text.slice(0, end)}\n[… truncated: showing the first ${end.toLocaleString('en-US')} of ${text.length.toLocaleString('en-US')} characters; ${rest.toLocaleString('en-US')} more not shown]`;
}

function bytes(n: number): string {
  return `${n.toLocaleString('en-US')} bytes`;
}
