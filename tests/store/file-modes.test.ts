import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const tsxLoader = pathToFileURL(join(root, 'node_modules/tsx/dist/loader.mjs')).href;
const storeModule = pathToFileURL(join(root, 'src/store/sqlite/sqlite-store.ts')).href;

// Under umask 000, opens a store in folders that do not exist yet, writes a turn, and reports the modes
// of the folders, the file and its -wal and -shm while the store is open.
const OPEN_UNDER_UMASK_000 = `
import { statSync } from 'node:fs';
const { openSqliteStore } = await import(${JSON.stringify(storeModule)});
process.umask(0);
const [top, path] = process.argv.slice(1);
const store = openSqliteStore(path);
await store.appendTurn('k', { author: 'a', question: 'q', answer: 'a', tokens: 1 });
const mode = (p) => (statSync(p).mode & 0o777).toString(8);
const parent = path.slice(0, path.lastIndexOf('/'));
console.log(JSON.stringify({ top: mode(top), parent: mode(parent), db: mode(path), wal: mode(path + '-wal'), shm: mode(path + '-shm') }));
await store.close();
`;

describe.skipIf(process.platform === 'win32')('the database files', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('are created 0600, and the folders made for them 0700, even under umask 000', () => {
    dir = mkdtempSync(join(tmpdir(), 'thinkthread-modes-'));
    const top = join(dir, 'data');
    const out = execFileSync(
      process.execPath,
      [
        '--import',
        tsxLoader,
        '--input-type=module',
        '-e',
        OPEN_UNDER_UMASK_000,
        top,
        join(top, 'db', 't.db'),
      ],
      { encoding: 'utf8' },
    );
    expect(JSON.parse(out)).toEqual({ top: '700', parent: '700', db: '600', wal: '600', shm: '600' });
  });
});
