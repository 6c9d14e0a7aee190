import type { ScheduleStore } from '../../core/ports/schedule-store.js';
import { INSERT_COLUMNS, rowValues, type ScheduleRow, scheduleOf } from '../schedule-rows.js';
import type { PostgresDb } from './postgres-db.js';

/**
 * The schedules half of the Postgres store. Replicas claim due rows with `FOR UPDATE SKIP LOCKED`, so each
 * row goes to one of them; settling is a compare-and-set on the claimer and the time claimed.
 */
export function postgresSchedules(db: PostgresDb): ScheduleStore {
  return {
    addSchedule: (schedule, max) =>
      db.transaction('save a schedule', async (sql) => {
        const { principal, origin } = schedule.creator;
        // One creator's (and one origin's) additions queue behind each other, so two at once cannot both
        // pass the count; locks are taken in one order, so two additions never wait on each other's. The
        // person's key is the principal alone, as released builds take it.
        const locks = [principal, ...(origin ? [`origin:${origin}`] : [])].sort();
        for (const lock of locks) {
          await sql("SELECT pg_advisory_xact_lock(hashtextextended('thinkthread:schedules:' || $1, 0))", [
            lock,
          ]);
        }
        const { rows } = await sql<{ person: string; place: string }>(
          `SELECT COUNT(*) FILTER (WHERE creator = $1) AS person,
                  COUNT(*) FILTER (WHERE origin = $2) AS place
             FROM schedules WHERE creator = $1 OR origin = $2`,
          [principal, origin ?? null],
        );
        if (Number(rows[0]?.person ?? 0) >= max || Number(rows[0]?.place ?? 0) >= max) return false;
        await sql(
          `INSERT INTO schedules (${INSERT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
          rowValues(schedule),
        );
        return true;
      }),
    async schedule(id) {
      const { rows } = await db.query<ScheduleRow>(
        'read a schedule',
        'SELECT * FROM schedules WHERE id = $1',
        [id],
      );
      return rows[0] ? scheduleOf(rows[0]) : undefined;
    },
    async schedules({ key, creator }) {
      const { rows } = await db.query<ScheduleRow>(
        'read the schedules',
        `SELECT * FROM schedules WHERE ($1::text IS NULL OR key = $1) AND ($2::text IS NULL OR creator = $2)
          ORDER BY next_at, id`,
        [key ?? null, creator ?? null],
      );
      return rows.map(scheduleOf);
    },
    async deleteSchedule(id) {
      const result = await db.query('delete a schedule', 'DELETE FROM schedules WHERE id = $1', [id]);
      return (result.rowCount ?? 0) > 0;
    },
    async claimDueSchedules({ now, leaseMs, owner, platforms, limit }) {
      if (platforms.length === 0) return [];
      const { rows } = await db.query<ScheduleRow>(
        'claim due schedules',
        `UPDATE schedules s SET claimed_by = $1, claim_until = $2
           FROM (SELECT id FROM schedules
                  WHERE NOT paused AND next_at <= $3 AND claim_until <= $3 AND platform = ANY($4::text[])
                  ORDER BY next_at LIMIT $5 FOR UPDATE SKIP LOCKED) due
          WHERE s.id = due.id
          RETURNING s.*`,
        [owner, now + leaseMs, now, platforms, limit],
      );
      return rows.map(scheduleOf).sort((a, b) => a.nextAt - b.nextAt);
    },
    async settleSchedules(owner, settlements) {
      if (settlements.length === 0) return [];
      // One statement, so one commit for a whole batch of runs.
      const { rows } = await db.query<{ id: string }>(
        'settle schedules',
        `WITH v AS (
           SELECT * FROM unnest($2::text[], $3::bigint[], $4::bigint[], $5::boolean[]) AS v(id, due_at, next_at, paused)
         ), moved AS (
           UPDATE schedules s SET next_at = v.next_at, paused = v.paused, claimed_by = NULL, claim_until = 0
             FROM v WHERE v.next_at IS NOT NULL AND s.id = v.id AND s.claimed_by = $1 AND s.next_at = v.due_at
           RETURNING s.id
         ), gone AS (
           DELETE FROM schedules s USING v
            WHERE v.next_at IS NULL AND s.id = v.id AND s.claimed_by = $1 AND s.next_at = v.due_at
           RETURNING s.id
         )
         SELECT id FROM moved UNION ALL SELECT id FROM gone`,
        [
          owner,
          settlements.map((s) => s.id),
          settlements.map((s) => s.dueAt),
          settlements.map((s) => s.next?.at ?? null),
          settlements.map((s) => s.next?.paused ?? false),
        ],
      );
      return rows.map((r) => r.id);
    },
    async releaseScheduleClaims(owner) {
      await db.query(
        'release schedule claims',
        'UPDATE schedules SET claimed_by = NULL, claim_until = 0 WHERE claimed_by = $1',
        [owner],
      );
    },
    async allSchedules() {
      const { rows } = await db.query<ScheduleRow>(
        'read the schedules',
        'SELECT * FROM schedules ORDER BY created_at, id',
      );
      return rows.map(scheduleOf);
    },
  };
}
