import { existsSync } from 'node:fs';
import dotenv from 'dotenv';
import { z } from 'zod';
import { ConfigError } from '../core/errors.js';
import type { Store } from '../core/ports/store.js';
import type { UsageGrouping } from '../core/ports/usage-store.js';
import { APPROVAL_COLUMNS, approvalCells } from '../platforms/shared/format-approvals.js';
import { feedbackLine } from '../platforms/shared/format-usage.js';
import { MAX_LISTED_APPROVALS } from '../store/approval-rows.js';
import { createStore, sqlitePathOf } from '../store/create-store.js';
import { SQLITE_MEMORY_PATH } from '../store/sqlite/sqlite-paths.js';
import { dayIn } from '../store/usage-days.js';
import { nextDay, startOfDay } from './calendar.js';
import { exitWith, oneLine, runCli } from './cli-exit.js';
import { formatCsv, formatTable } from './format-table.js';
import { parseUsageArgs, USAGE_SYNOPSIS, UsageArgsError } from './usage-args.js';
import { pricesOf, remainder, reportOrder, usageCsv, usageTable } from './usage-report.js';

// Only what the report needs: the bot's own parseConfig insists on a model, which a report does not use.
const PRICE = 'must be a number of US dollars per million tokens, 0 or more';
const price = z.coerce.number({ error: PRICE }).min(0, PRICE).optional();
const settingsSchema = z.object({
  DATABASE_URL: z.string().default('sqlite:./data/thinkthread.db'),
  DEFAULT_TIMEZONE: z.string().optional(),
  LLM_PRICE_INPUT_PER_MTOK: price,
  LLM_PRICE_OUTPUT_PER_MTOK: price,
});
type Settings = z.output<typeof settingsSchema>;

const GROUPING = { user: 'user', channel: 'key', day: 'day' } as const satisfies Record<
  string,
  UsageGrouping
>;

/** `npm run usage`: prints what the bot spent in a period, from the store DATABASE_URL names. */
async function main(argv: readonly string[]): Promise<void> {
  let args: ReturnType<typeof parseUsageArgs>;
  try {
    args = parseUsageArgs(argv);
  } catch (err) {
    if (err instanceof UsageArgsError) exitWith(2, `thinkthread usage: ${err.message}. ${USAGE_SYNOPSIS}`);
    throw err;
  }
  if (args.help) {
    process.stdout.write(`${USAGE_SYNOPSIS}\n`);
    return;
  }
  dotenv.config({ quiet: true });
  const settings = readSettings(process.env);
  const timeZone = settings.DEFAULT_TIMEZONE ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  const today = dayIn(timeZone)(Date.now());
  const untilDay = args.until ?? today;
  const sinceDay = args.since ?? `${untilDay.slice(0, 8)}01`;
  if (sinceDay > untilDay)
    exitWith(2, `thinkthread usage: --since ${sinceDay} is after ${untilDay}. ${USAGE_SYNOPSIS}`);
  const period = { since: startOfDay(sinceDay, timeZone), until: startOfDay(nextDay(untilDay), timeZone) };

  const store = await openStore(settings.DATABASE_URL);
  try {
    if (args.approvals) {
      const records = await store.listApprovals({ ...period, limit: MAX_LISTED_APPROVALS });
      const rows = records.map(approvalCells);
      if (args.csv) process.stdout.write(formatCsv([[...APPROVAL_COLUMNS], ...rows]));
      else {
        process.stdout.write(
          `Tool-call approvals from ${sinceDay} to ${untilDay} (${timeZone}), newest first\n\n`,
        );
        process.stdout.write(
          rows.length > 0
            ? `${formatTable(
                [...APPROVAL_COLUMNS],
                rows,
                APPROVAL_COLUMNS.map(() => 'left'),
              )}\n`
            : 'No decisions in this period.\n',
        );
      }
      return;
    }
    const groups = await store.totals({ ...period, by: GROUPING[args.by], timeZone });
    const [total] = await store.totals({ ...period, by: 'none' });
    const votes = await store.feedbackTotals(period);
    // Memory summaries belong to no user: a row of their own keeps the table adding up to the total.
    const summaries = args.by === 'user' ? remainder(total!, groups, '(memory summaries)') : undefined;
    const report = {
      groupTitle: args.by,
      groups: [...reportOrder(groups, args.by === 'day'), ...(summaries ? [summaries] : [])],
      total: total!,
      prices: pricesOf(settings.LLM_PRICE_INPUT_PER_MTOK, settings.LLM_PRICE_OUTPUT_PER_MTOK),
    };
    if (args.csv) process.stdout.write(usageCsv(report));
    else {
      process.stdout.write(`Usage from ${sinceDay} to ${untilDay} (${timeZone}), by ${args.by}\n\n`);
      process.stdout.write(`${usageTable(report)}\n`);
      process.stdout.write(`\n${feedbackLine('Feedback on answers', votes)}\n`);
    }
  } finally {
    await store.close();
  }
}

function readSettings(env: NodeJS.ProcessEnv): Settings {
  const set = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v.trim() !== ''));
  const parsed = settingsSchema.safeParse(set);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    exitWith(1, `thinkthread usage: ${issue.path.join('.')}: ${issue.message}`);
  }
  const zone = parsed.data.DEFAULT_TIMEZONE?.trim();
  if (zone) {
    try {
      dayIn(zone);
    } catch {
      exitWith(1, `thinkthread usage: DEFAULT_TIMEZONE: unknown time zone "${zone}"`);
    }
  }
  return { ...parsed.data, DEFAULT_TIMEZONE: zone || undefined };
}

/** Opens the store, refusing to create a SQLite file that is not there (a report only reads). */
async function openStore(databaseUrl: string): Promise<Store> {
  try {
    if (/^\s*sqlite:/i.test(databaseUrl)) {
      const path = sqlitePathOf(databaseUrl);
      if (path !== SQLITE_MEMORY_PATH && !existsSync(path)) {
        exitWith(1, `thinkthread usage: there is no database at ${path} (DATABASE_URL)`);
      }
    }
    return await createStore(databaseUrl);
  } catch (err) {
    const message = err instanceof ConfigError ? err.problems.join('; ') : oneLine(err);
    exitWith(1, `thinkthread usage: ${message}`);
  }
}

await runCli('usage', () => main(process.argv.slice(2)));
