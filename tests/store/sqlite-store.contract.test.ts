import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Store } from '../../src/core/ports/store.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { appSecretsContract } from '../contract/app-secrets-contract.js';
import { approvalWaitsContract } from '../contract/approval-waits-contract.js';
import { approvalsContract } from '../contract/approvals-contract.js';
import { archiveContract } from '../contract/archive-contract.js';
import { feedbackContract } from '../contract/feedback-contract.js';
import { followsContract } from '../contract/follows-contract.js';
import { forgetContract } from '../contract/forget-contract.js';
import { knowledgeContract } from '../contract/knowledge-contract.js';
import { runLogsContract } from '../contract/run-logs-contract.js';
import { schedulesContract } from '../contract/schedules-contract.js';
import { settingsContract } from '../contract/settings-contract.js';
import { type StoreFixture, storeContract, type TableRow } from '../contract/store-contract.js';
import { usageContract } from '../contract/usage-contract.js';
import { webChatsContract } from '../contract/web-chats-contract.js';
import { webSessionsContract } from '../contract/web-sessions-contract.js';

/** Every row of every table the database file lists, virtual and shadow tables included. */
function everyRow(path: string): TableRow[] {
  const db = new Database(path, { readonly: true });
  try {
    const tables = db
      .prepare<[], { name: string }>("SELECT name FROM sqlite_schema WHERE type = 'table'")
      .all();
    return tables.flatMap(({ name }) =>
      db
        .prepare<[], Record<string, unknown>>(`SELECT * FROM "${name}"`)
        .all()
        .map((row) => ({ table: name, row })),
    );
  } finally {
    db.close();
  }
}

async function openFixture(): Promise<StoreFixture> {
  const dir = mkdtempSync(join(tmpdir(), 'thinkthread-store-contract-'));
  const path = join(dir, 'memory.db');
  const opened: Store[] = [];
  const open = () => {
    const store = openSqliteStore(path);
    opened.push(store);
    return store;
  };
  return {
    store: open(),
    reopen: async () => open(),
    everyRow: async () => everyRow(path),
    async cleanup() {
      for (const store of opened) await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

storeContract('SQLite file', openFixture);
usageContract('SQLite file', openFixture);
settingsContract('SQLite file', openFixture);
feedbackContract('SQLite file', openFixture);
archiveContract('SQLite file', openFixture);
webChatsContract('SQLite file', openFixture);
webSessionsContract('SQLite file', openFixture);
appSecretsContract('SQLite file', openFixture);
followsContract('SQLite file', openFixture);
knowledgeContract('SQLite file', openFixture);
runLogsContract('SQLite file', openFixture);
schedulesContract('SQLite file', openFixture);
approvalsContract('SQLite file', openFixture);
approvalWaitsContract('SQLite file', openFixture);
forgetContract('SQLite file', openFixture);
