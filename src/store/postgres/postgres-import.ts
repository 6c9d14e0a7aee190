import { createHash } from 'node:crypto';
import type { Schedule } from '../../core/ports/schedule-store.js';
import type { StoredUsageRecord } from '../../core/ports/usage-store.js';
import { INSERT_COLUMNS, rowValues } from '../schedule-rows.js';
import type { ExportedConversation } from '../sqlite/sqlite-export.js';
import type { ExportedRunLog, ExportedWebChat } from '../sqlite/sqlite-export-tables.js';
import { rowOf } from '../usage-rows.js';
import { Rollback } from './postgres-db.js';
import { type RowImporter, rowImporter } from './postgres-import-rows.js';
import { importRunLogs, importWebChat, type RunLogsCopied } from './postgres-import-runs.js';
import { openMigratedDb } from './postgres-migrations.js';
import type { PostgresTarget } from './postgres-url.js';

/** Writes copied data into a Postgres store, each piece at most once however often it is run. */
export interface PostgresImport {
  /**
   * Copies a conversation with its turns, archive and notes (in order, new ids) unless the key exists there
   * (for one without a conversation row: unless anything is kept under its key there); true if copied.
   */
  conversation(c: ExportedConversation): Promise<boolean>;
  /** Copies the records not copied before; resolves with how many were new. */
  usage(records: readonly StoredUsageRecord[]): Promise<number>;
  /** Copies the schedules not there yet (by id), unclaimed; resolves with how many were new. */
  schedules(schedules: readonly Schedule[]): Promise<number>;
  /** Copies rows of a table keyed by its own columns (settings, votes, approvals, sessions, …). */
  rows: RowImporter;
  /** Copies run logs onto the copies of their usage records (copy the usage first). */
  runLogs(logs: readonly ExportedRunLog[]): Promise<RunLogsCopied>;
  /** Copies a web chat with its runs unless its key is there; true if copied. */
  webChat(chat: ExportedWebChat): Promise<boolean>;
  /** The names of kept secrets that Postgres holds with another value. */
  differingSecrets(secrets: readonly { name: string; value: string }[]): Promise<string[]>;
  close(): Promise<void>;
}

/**
 * A record's identity across copies: its source id and the fields fixed when it was taken (a pending
 * record completed later keeps it). Stored in `usage.imported_from`, whose unique index skips a second copy.
 */
export const sourceIdentity = (r: StoredUsageRecord): string =>
  `sqlite:${r.id}:${createHash('sha256')
    .update(JSON.stringify([r.at, r.platform, r.key, legacyUser(r), r.model, r.protocol]))
    .digest('hex')
    .slice(0, 16)}`;

/** The user as records named it before principals, so copies made before that upgrade are still found. */
const legacyUser = (r: StoredUsageRecord): string | null =>
  r.userId?.startsWith(`${r.platform}:`) ? r.userId.slice(r.platform.length + 1) : r.userId;

/** Opens (and migrates) the Postgres store at `target` for an import. */
export async function openPostgresImport(target: PostgresTarget): Promise<PostgresImport> {
  const db = await openMigratedDb(target, { poolSize: 2, statementTimeoutMs: 60_000 });
  return {
    conversation: (c) =>
      db.transaction('copy a conversation', async (sql) => {
        // A key already there (copied before, or live since) is left alone: its memory is never merged.
        if (c.stored) {
          const created = await sql(
            `INSERT INTO conversations (key, summary, summary_tokens, summarized_turns, version, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (key) DO NOTHING`,
            [c.key, c.summary, c.summaryTokens, c.summarizedTurns, c.version, c.updatedAt],
          );
          if (created.rowCount !== 1) throw new Rollback(false);
        } else {
          await sql("SELECT pg_advisory_xact_lock(hashtextextended('thinkthread:import:' || $1, 0))", [
            c.key,
          ]);
          const there = await sql(
            `SELECT 1 FROM conversations WHERE key = $1 UNION ALL SELECT 1 FROM archive WHERE key = $1
             UNION ALL SELECT 1 FROM notes WHERE key = $1 LIMIT 1`,
            [c.key],
          );
          if (there.rowCount !== 0) throw new Rollback(false);
        }
        // Ids come from the turns' own sequence, in the source's order, so a verbatim turn keeps one id in
        // turns and archive, and a folded one never collides with a turn appended later.
        const sourceIds = [...new Set([...c.turns.map((t) => t.id), ...c.archive.map((t) => t.id)])].sort(
          (a, b) => a - b,
        );
        const fresh = (
          await sql<{ id: number }>(
            "SELECT nextval(pg_get_serial_sequence('turns', 'id')) AS id FROM generate_series(1, $1)",
            [sourceIds.length],
          )
        ).rows
          .map((r) => Number(r.id))
          .sort((a, b) => a - b);
        const idOf = new Map(sourceIds.map((id, i) => [id, fresh[i]!]));
        if (c.turns.length > 0) {
          await sql(
            `INSERT INTO turns (id, key, author, question, answer, tokens, created_at, principal)
             OVERRIDING SYSTEM VALUE
             SELECT id, $1, author, question, answer, tokens, created_at, principal
               FROM unnest($2::bigint[], $3::text[], $4::text[], $5::text[], $6::int[], $7::bigint[], $8::text[])
                    AS t(id, author, question, answer, tokens, created_at, principal)`,
            [
              c.key,
              c.turns.map((t) => idOf.get(t.id)),
              c.turns.map((t) => t.author),
              c.turns.map((t) => t.question),
              c.turns.map((t) => t.answer),
              c.turns.map((t) => t.tokens),
              c.turns.map((t) => t.createdAt),
              c.turns.map((t) => t.principal ?? null),
            ],
          );
        }
        if (c.archive.length > 0) {
          await sql(
            `INSERT INTO archive (id, key, author, principal, question, answer, created_at)
             SELECT id, $1, author, principal, question, answer, created_at
               FROM unnest($2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bigint[])
                    AS t(id, author, principal, question, answer, created_at)`,
            [
              c.key,
              c.archive.map((t) => idOf.get(t.id)),
              c.archive.map((t) => t.author),
              c.archive.map((t) => t.principal),
              c.archive.map((t) => t.question),
              c.archive.map((t) => t.answer),
              c.archive.map((t) => t.createdAt),
            ],
          );
        }
        if (c.notes.length > 0) {
          await sql(
            `INSERT INTO notes (key, subject, text, author, created_at, instruction, local)
             SELECT $1, subject, text, author, created_at, instruction, local
               FROM unnest($2::text[], $3::text[], $4::text[], $5::bigint[], $6::boolean[], $7::boolean[])
                    WITH ORDINALITY AS t(subject, text, author, created_at, instruction, local, n)
              ORDER BY n`,
            [
              c.key,
              c.notes.map((n) => n.subject),
              c.notes.map((n) => n.text),
              c.notes.map((n) => n.author),
              c.notes.map((n) => n.createdAt),
              c.notes.map((n) => n.instruction === true),
              c.notes.map((n) => n.local === true),
            ],
          );
        }
        return true;
      }),
    async usage(records) {
      if (records.length === 0) return 0;
      const rows = records.map((r) => ({ ...rowOf(r), imported_from: sourceIdentity(r) }));
      const column = <K extends keyof (typeof rows)[number]>(k: K) => rows.map((r) => r[k]);
      const inserted = await db.query(
        'copy usage records',
        `INSERT INTO usage (at, platform, key, user_id, model, protocol, outcome, model_calls, prompt_tokens,
           completion_tokens, cached_tokens, tools, duration_ms, imported_from, origin)
         SELECT at, platform, key, user_id, model, protocol, outcome, model_calls, prompt_tokens,
                completion_tokens, cached_tokens, tools::jsonb, duration_ms, imported_from, origin
           FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
                       $8::int[], $9::int[], $10::int[], $11::int[], $12::text[], $13::int[], $14::text[],
                       $15::text[])
                WITH ORDINALITY AS t(at, platform, key, user_id, model, protocol, outcome, model_calls,
                  prompt_tokens, completion_tokens, cached_tokens, tools, duration_ms, imported_from, origin, n)
          ORDER BY n
         ON CONFLICT (imported_from) DO NOTHING`,
        [
          column('at'),
          column('platform'),
          column('key'),
          column('user_id'),
          column('model'),
          column('protocol'),
          column('outcome'),
          column('model_calls'),
          column('prompt_tokens'),
          column('completion_tokens'),
          column('cached_tokens'),
          column('tools'),
          column('duration_ms'),
          column('imported_from'),
          column('origin'),
        ],
      );
      return inserted.rowCount ?? 0;
    },
    async schedules(schedules) {
      if (schedules.length === 0) return 0;
      const rows = schedules.map(rowValues);
      const inserted = await db.query(
        'copy schedules',
        `INSERT INTO schedules (${INSERT_COLUMNS})
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
                              $8::text[], $9::bigint[], $10::boolean[], $11::text[], $12::bigint[], $13::text[])
         ON CONFLICT (id) DO NOTHING`,
        rows[0]!.map((_, i) => rows.map((r) => r[i])),
      );
      return inserted.rowCount ?? 0;
    },
    rows: rowImporter(db),
    runLogs: (logs) => importRunLogs(db, logs, sourceIdentity),
    webChat: (chat) => importWebChat(db, chat),
    async differingSecrets(secrets) {
      const { rows } = await db.query<{ name: string; value: string }>(
        'read kept secrets',
        'SELECT name, value FROM app_secrets WHERE name = ANY($1::text[])',
        [secrets.map((s) => s.name)],
      );
      const there = new Map(rows.map((r) => [r.name, r.value]));
      return secrets.filter((s) => there.has(s.name) && there.get(s.name) !== s.value).map((s) => s.name);
    },
    close: () => db.close(),
  };
}
