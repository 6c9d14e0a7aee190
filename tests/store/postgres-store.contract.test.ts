import type { Store } from '../../src/core/ports/store.js';
import { openPostgresStore } from '../../src/store/postgres/postgres-store.js';
import { parsePostgresUrl } from '../../src/store/postgres/postgres-url.js';
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
import { asAdmin, dropSchema, freshSchema, postgresSuite, withSchema } from './postgres-test-db.js';

/** Every row of every table in `schema`, the tables listed by the database itself. */
const everyRow = (url: string, schema: string) =>
  asAdmin(url, async (client) => {
    const { rows: tables } = await client.query<{ name: string }>(
      "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE'",
      [schema],
    );
    const all: TableRow[] = [];
    for (const { name } of tables) {
      const { rows } = await client.query<{ row: Record<string, unknown> }>(
        `SELECT to_jsonb(t) AS row FROM "${schema}"."${name}" t`,
      );
      all.push(...rows.map(({ row }) => ({ table: name, row })));
    }
    return all;
  });

postgresSuite('Postgres store contract', (url) => {
  // Each test gets a schema of its own, dropped after it.
  async function openFixture(): Promise<StoreFixture> {
    const schema = freshSchema();
    const target = parsePostgresUrl(withSchema(url, schema), 'TEST_DATABASE_URL');
    const opened: Store[] = [];
    const open = async () => {
      const store = await openPostgresStore(target, { poolSize: 4 });
      opened.push(store);
      return store;
    };
    return {
      store: await open(),
      reopen: open,
      everyRow: () => everyRow(url, schema),
      async cleanup() {
        for (const store of opened) await store.close();
        await dropSchema(url, schema);
      },
    };
  }

  storeContract('Postgres', openFixture);
  usageContract('Postgres', openFixture);
  settingsContract('Postgres', openFixture);
  feedbackContract('Postgres', openFixture);
  archiveContract('Postgres', openFixture);
  webChatsContract('Postgres', openFixture);
  webSessionsContract('Postgres', openFixture);
  appSecretsContract('Postgres', openFixture);
  followsContract('Postgres', openFixture);
  knowledgeContract('Postgres', openFixture);
  runLogsContract('Postgres', openFixture);
  schedulesContract('Postgres', openFixture);
  approvalsContract('Postgres', openFixture);
  approvalWaitsContract('Postgres', openFixture);
  forgetContract('Postgres', openFixture);
});
