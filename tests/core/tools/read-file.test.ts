import { execFileSync, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Tool, ToolInputError } from '../../../src/core/tools/define-tool.js';
import { MAX_FILE_CHARS, readFileTool } from '../../../src/core/tools/read-file.js';
import { testConfig } from '../../helpers/config.js';

let base: string;
let workspace: string;
let tool: Tool<{ path: string }>;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'thinkthread-read-file-'));
  workspace = join(base, 'workspace');
  await mkdir(join(workspace, 'notes'), { recursive: true });
  await writeFile(join(base, 'secret.txt'), 'TOP SECRET');
  tool = makeTool();
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

// Swaps <workspace>/d for a link to <outside> and back, as fast as it can, until killed.
const SWAP_LOOP = `
const fs = require('node:fs');
const [ws, outside] = process.argv.slice(1);
const dir = ws + '/d', parked = ws + '/d.parked';
for (;;) {
  fs.renameSync(dir, parked);
  fs.symlinkSync(outside, dir);
  fs.unlinkSync(dir);
  fs.renameSync(parked, dir);
}`;

function makeTool(env: Record<string, string> = {}): Tool<{ path: string }> {
  return readFileTool(testConfig({ WORKSPACE_DIR: workspace, ...env })) as Tool<{ path: string }>;
}
const read = (path: string, t = tool) => t.execute({ path }, { signal: new AbortController().signal });

async function refusal(path: string): Promise<string> {
  const error = await read(path).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ToolInputError);
  expect(error).toMatchObject({ code: 'tool_input' });
  return (error as Error).message;
}

describe('read_file', () => {
  it('reads a text file by its path inside the workspace', async () => {
    await writeFile(join(workspace, 'notes', 'todo.md'), '# Todo\n- buy milk\n');
    expect(await read('notes/todo.md')).toBe('# Todo\n- buy milk\n');
    expect(await read('./notes/../notes/todo.md')).toBe('# Todo\n- buy milk\n');
  });

  it('resolves a relative WORKSPACE_DIR against the working directory', async () => {
    await writeFile(join(workspace, 'a.txt'), 'hello');
    expect(await read('a.txt', makeTool({ WORKSPACE_DIR: relative(process.cwd(), workspace) }))).toBe(
      'hello',
    );
  });

  it.each(['../secret.txt', 'notes/../../secret.txt', '..'])('refuses the escape %s', async (path) => {
    expect(await refusal(path)).toMatch(/outside the workspace/);
  });

  it.each([() => join(base, 'secret.txt'), () => '/proc/self/environ', () => '/etc/passwd'])(
    'refuses absolute paths',
    async (path) => {
      expect(await refusal(path())).toMatch(/^Absolute paths are not allowed/);
    },
  );

  it('refuses symlinks that lead outside the workspace', async () => {
    await symlink(join(base, 'secret.txt'), join(workspace, 'innocent.txt'));
    await symlink('/proc/self/environ', join(workspace, 'environ'));
    await symlink(base, join(workspace, 'up'));
    for (const path of ['innocent.txt', 'environ', 'up/secret.txt']) {
      const message = await refusal(path);
      expect(message).toMatch(/links to a location outside the workspace/);
      expect(message).not.toContain('TOP SECRET');
    }
  });

  it('follows symlinks that stay inside the workspace', async () => {
    await writeFile(join(workspace, 'notes', 'real.txt'), 'inside');
    await symlink(join(workspace, 'notes', 'real.txt'), join(workspace, 'alias.txt'));
    expect(await read('alias.txt')).toBe('inside');
  });

  it('lists a directory instead of reading it', async () => {
    await writeFile(join(workspace, 'notes', 'b.md'), 'b');
    await writeFile(join(workspace, 'notes', 'a.md'), 'a');
    await mkdir(join(workspace, 'notes', 'archive'));
    expect(await read('notes')).toBe(
      '"notes" is a directory with 3 entries: a.md, archive/, b.md. Read a file inside it by its path.',
    );
  });

  it('says clearly when the file does not exist', async () => {
    expect(await refusal('nope.txt')).toBe('There is no file "nope.txt" in the workspace.');
  });

  it('describes a binary file instead of dumping it', async () => {
    const png = Buffer.from([
      0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52,
    ]);
    await writeFile(join(workspace, 'logo.png'), png);
    expect(await read('logo.png')).toBe('"logo.png" is a binary file (16 bytes); its content is not shown.');
  });

  it('cuts long text and says how much was left out', async () => {
    const line = `${'x'.repeat(99)}\n`;
    await writeFile(join(workspace, 'long.txt'), line.repeat(200)); // 20,000 characters
    const text = await read('long.txt');
    expect(text.length).toBeLessThanOrEqual(MAX_FILE_CHARS + 200);
    expect(text.startsWith(line.repeat(60))).toBe(true);
    expect(text).toMatch(
      /\[… truncated: showing the first 6,999 of 20,000 characters; 13,001 more not shown\]$/,
    );
  });

  it('refuses files over READ_FILE_MAX_BYTES without reading them', async () => {
    await writeFile(join(workspace, 'big.log'), 'y'.repeat(5000));
    const small = makeTool({ READ_FILE_MAX_BYTES: '1000' });
    const error = (await read('big.log', small).catch((e: unknown) => e)) as Error;
    expect(error.message).toBe('"big.log" is 5,000 bytes, over the 1,000 bytes limit for reading files.');
  });

  it('refuses .env files, which hold secrets', async () => {
    await writeFile(join(workspace, '.env'), 'OPENAI_API_KEY=sk-123');
    expect(await refusal('.env')).toMatch(/may hold secrets/);
  });

  it.each([
    '.ENV',
    '.env.local',
    '.Env.Production',
    '.envrc',
    'server.pem',
    'TLS.KEY',
    'id_rsa',
    'ID_ED25519',
    'notes/id_ecdsa.pub',
  ])('refuses the secret file %s, whatever its case', async (path) => {
    await writeFile(join(workspace, path), 'PRIVATE');
    expect(await refusal(path)).toMatch(/may hold secrets \(READ_FILE_DENY\)/);
  });

  it('refuses a link to a secret file by the name it leads to', async () => {
    await writeFile(join(workspace, 'server.key'), 'PRIVATE');
    await symlink('server.key', join(workspace, 'harmless.txt'));
    expect(await refusal('harmless.txt')).toMatch(/may hold secrets/);
  });

  it('reads .env.example, and follows READ_FILE_DENY when it is set', async () => {
    await writeFile(join(workspace, '.env.example'), '# LLM_MODEL=gpt-4o-mini');
    await writeFile(join(workspace, 'private.txt'), 'mine');
    await writeFile(join(workspace, 'server.pem'), 'cert');
    expect(await read('.env.example')).toBe('# LLM_MODEL=gpt-4o-mini');
    const strict = makeTool({ READ_FILE_DENY: 'PRIVATE.*, *.example' });
    expect(await read('private.txt', strict).catch((e: Error) => e.message)).toMatch(/may hold secrets/);
    expect(await read('.env.example', strict).catch((e: Error) => e.message)).toMatch(/may hold secrets/);
    expect(await read('server.pem', strict)).toBe('cert');
  });

  it('says an empty file is empty', async () => {
    await writeFile(join(workspace, 'empty.txt'), '');
    expect(await read('empty.txt')).toBe('"empty.txt" is empty.');
  });

  it.skipIf(process.platform === 'win32')('refuses a named pipe instead of hanging on it', async () => {
    execFileSync('mkfifo', [join(workspace, 'pipe')]);
    expect(await refusal('pipe')).toBe('"pipe" is not a regular file.');
  });

  it.skipIf(process.platform === 'win32')(
    'never reads outside while a folder on the path is swapped for a link to outside, again and again',
    async () => {
      await mkdir(join(workspace, 'd'));
      await writeFile(join(workspace, 'd', 'f.txt'), 'inside');
      await mkdir(join(base, 'outside'));
      await writeFile(join(base, 'outside', 'f.txt'), 'TOP SECRET');
      const swapper = spawn(process.execPath, ['-e', SWAP_LOOP, workspace, join(base, 'outside')], {
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      const outcomes = { inside: 0, refused: 0, outside: 0 };
      try {
        const end = Date.now() + 3000;
        while (Date.now() < end) {
          const text = await read('d/f.txt').catch(() => undefined);
          if (text === undefined) outcomes.refused++;
          else if (text.includes('TOP SECRET')) outcomes.outside++;
          else outcomes.inside++;
        }
      } finally {
        swapper.kill();
      }
      expect(outcomes.outside).toBe(0);
      expect(outcomes.inside).toBeGreaterThan(0);
      expect(outcomes.refused).toBeGreaterThan(0);
    },
  );

  it('says when the workspace folder itself is missing', async () => {
    const missing = makeTool({ WORKSPACE_DIR: join(base, 'no-such-dir') });
    await expect(read('a.txt', missing)).rejects.toThrow(
      /The workspace folder \(.+no-such-dir\) does not exist\./,
    );
  });
});
