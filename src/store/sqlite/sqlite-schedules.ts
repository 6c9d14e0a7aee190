import type Database from 'better-sqlite3';
import type { Schedule, ScheduleSettlement, ScheduleStore } from '../../core/ports/schedule-store.js';
import { INSERT_COLUMNS, rowValues, type ScheduleRow, scheduleOf } from '../schedule-rows.js';
import type { FailWith } from './sqlite-usage.js';

/** The schedules half of the SQLite store; claims are IMMEDIATE transactions, so processes sharing the file take each run once. */
export function sqliteSchedules(db: Database.Database, fail: FailWith): ScheduleStore {
  const count = db.prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM schedules WHERE creator = ?');
  const countOrigin = db.prepare<[string], { n: number }>(
    'SELECT COUNT(*) AS n FROM schedules WHERE origin = ?',
  );
  const insert = db.prepare(
    `INSERT INTO schedules (${INSERT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const add = db.transaction((s: Schedule, max: number) => {
    if ((count.get(s.creator.principal)?.n ?? 0) >= max) return false;
    if (s.creator.origin && (countOrigin.get(s.creator.origin)?.n ?? 0) >= max) return false;
    insert.run(...rowValues(s).map((v) => (typeof v === 'boolean' ? Number(v) : v)));
    return true;
  });
  const byId = db.prepare<[string], ScheduleRow>('SELECT * FROM schedules WHERE id = ?');
  const remove = db.prepare<[string]>('DELETE FROM schedules WHERE id = ?');
  const claim = db.transaction(
    (now: number, until: number, owner: string, platforms: string[], limit: number) => {
      const marks = platforms.map(() => '?').join(', ');
      const rows = db
        .prepare<unknown[], ScheduleRow>(
          `SELECT * FROM schedules WHERE paused = 0 AND next_at <= ? AND claim_until <= ? AND platform IN (${marks})
          ORDER BY next_at LIMIT ?`,
        )
        .all(now, now, ...platforms, limit);
      const take = db.prepare<[string, number, string]>(
        'UPDATE schedules SET claimed_by = ?, claim_until = ? WHERE id = ?',
      );
      for (const row of rows) take.run(owner, until, row.id);
      return rows;
    },
  );
  const advance = db.prepare<[number, number, string, string, number]>(
    `UPDATE schedules SET next_at = ?, paused = ?, claimed_by = NULL, claim_until = 0
      WHERE id = ? AND claimed_by = ? AND next_at = ?`,
  );
  const finish = db.prepare<[string, string, number]>(
    'DELETE FROM schedules WHERE id = ? AND claimed_by = ? AND next_at = ?',
  );
  const settle = db.transaction((owner: string, settlements: readonly ScheduleSettlement[]) =>
    settlements
      .filter(({ id, dueAt, next }) =>
        next
          ? advance.run(next.at, next.paused ? 1 : 0, id, owner, dueAt).changes > 0
          : finish.run(id, owner, dueAt).changes > 0,
      )
      .map((s) => s.id),
  );
  const release = db.prepare<[string]>(
    'UPDATE schedules SET claimed_by = NULL, claim_until = 0 WHERE claimed_by = ?',
  );
  const all = db.prepare<[], ScheduleRow>('SELECT * FROM schedules ORDER BY created_at, id');

  const guard = <T>(what: string, work: () => T): T => {
    try {
      return work();
    } catch (err) {
      throw fail(what, err);
    }
  };
  return {
    async addSchedule(schedule, max) {
      return guard('save a schedule', () => add.immediate(schedule, max));
    },
    async schedule(id) {
      return guard('read a schedule', () => {
        const row = byId.get(id);
        return row ? scheduleOf(row) : undefined;
      });
    },
    async schedules({ key, creator }) {
      return guard('read the schedules', () => {
        const where = [
          ...(key !== undefined ? ['key = ?'] : []),
          ...(creator !== undefined ? ['creator = ?'] : []),
        ];
        const params = [...(key !== undefined ? [key] : []), ...(creator !== undefined ? [creator] : [])];
        return db
          .prepare<unknown[], ScheduleRow>(
            `SELECT * FROM schedules ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY next_at, id`,
          )
          .all(...params)
          .map(scheduleOf);
      });
    },
    async deleteSchedule(id) {
      return guard('delete a schedule', () => remove.run(id).changes > 0);
    },
    async claimDueSchedules({ now, leaseMs, owner, platforms, limit }) {
      if (platforms.length === 0) return [];
      return guard('claim due schedules', () =>
        claim.immediate(now, now + leaseMs, owner, [...platforms], limit).map(scheduleOf),
      );
    },
    async settleSchedules(owner, settlements) {
      if (settlements.length === 0) return [];
      return guard('settle schedules', () => settle.immediate(owner, settlements));
    },
    async releaseScheduleClaims(owner) {
      guard('release schedule claims', () => release.run(owner));
    },
    async allSchedules() {
      return guard('read the schedules', () => all.all().map(scheduleOf));
    },
  };
}
