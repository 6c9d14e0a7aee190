import { randomBytes } from 'node:crypto';
import type { Asker } from '../governance/asker.js';
import type { Logger } from '../logger.js';
import type { Schedule, ScheduleSettlement, ScheduleStore } from '../ports/schedule-store.js';
import type { SystemRun, SystemRunDeliveries } from '../ports/system-run-delivery.js';
import { currentAsker } from './creator-rights.js';
import { platformOfKey } from './platform-of-key.js';
import { scheduleRun } from './schedule-run.js';
import { formatInZone, nextAfter } from './schedule-time.js';

/** Fires due schedules: claimed once across replicas, checked against the access lists, then delivered. */
export interface Scheduler {
  /** Starts firing through these platforms' deliveries; polls unless `pollMs` is 0. */
  start(deliveries: SystemRunDeliveries): void;
  /** Whether runs of `platform` can be delivered by this replica. */
  delivers(platform: string): boolean;
  /** Claims and fires everything due now; resolves with how many runs were started. */
  tick(): Promise<number>;
  /** Resolves once every run started so far has ended. */
  idle(): Promise<void>;
  /** Stops polling, gives back unsettled claims and waits for runs in flight. */
  stop(): Promise<void>;
}

/** What the scheduler needs. */
export interface SchedulerDeps {
  store: ScheduleStore;
  /** Whether the creator may still ask in the conversation (the access lists). */
  allowed(asker: Asker, key: string): Promise<boolean>;
  /** SCHEDULE_CATCH_UP_MS: a run later than this (every replica was down) is skipped with a note. */
  catchUpMs: number;
  logger?: Logger | undefined;
  now?: (() => number) | undefined;
  /** Time between polls; 0 polls only when `tick` is called (tests). */
  pollMs?: number | undefined;
  /** How long a claim holds if this replica dies before settling it. */
  leaseMs?: number | undefined;
  /** Runs claimed per query. */
  batch?: number | undefined;
  /** This replica's name in claims; random when unset. */
  owner?: string | undefined;
}

/** Default poll interval: a run starts within about a second of its time. */
export const SCHEDULE_POLL_MS = 1_000;
/** How long after each whole poll interval a poll runs, so that the clock has surely passed it. */
const POLL_OFFSET_MS = 5;
/** Default claim lease: a replica killed after claiming hands its runs to a survivor this much later. */
export const SCHEDULE_LEASE_MS = 30_000;

/** Creates the scheduler. */
export function createScheduler(deps: SchedulerDeps): Scheduler {
  const { store, logger } = deps;
  const now = deps.now ?? Date.now;
  const owner = deps.owner ?? `replica-${randomBytes(6).toString('hex')}`;
  const leaseMs = deps.leaseMs ?? SCHEDULE_LEASE_MS;
  const batch = deps.batch ?? 500;
  const pollMs = deps.pollMs ?? SCHEDULE_POLL_MS;
  let deliveries: SystemRunDeliveries = {};
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  let ticking: Promise<number> | undefined;
  const inFlight = new Set<Promise<void>>();

  const track = (work: Promise<void>) => {
    const tracked = work.finally(() => inFlight.delete(tracked));
    inFlight.add(tracked);
  };
  const tell = (schedule: Schedule, text: string) => {
    const delivery = deliveries[platformOfKey(schedule.key)];
    if (!delivery) return;
    track(
      delivery
        .tell(scheduleRun(schedule), text)
        .catch((err: unknown) =>
          logger?.warn({ id: schedule.id, err }, 'could not tell a schedule’s creator'),
        ),
    );
  };

  /** What becomes of a claimed run: how it is settled, then what is done once it is. */
  type Decision = {
    schedule: Schedule;
    settlement: ScheduleSettlement;
    action: { deliver: SystemRun } | { tell: string; log: string };
  };

  async function decide(schedule: Schedule): Promise<Decision> {
    const at = now();
    const dueAt = schedule.nextAt;
    const next = schedule.cron ? nextAfter(schedule.cron, schedule.timezone, dueAt, at) : undefined;
    const moved = { id: schedule.id, dueAt, next: next === undefined ? null : { at: next } };
    if (at - dueAt > deps.catchUpMs) {
      return {
        schedule,
        settlement: moved,
        action: {
          log: 'skipped a scheduled run missed while the bot was down',
          tell:
            `Your scheduled question "${schedule.question}" was due on ${formatInZone(dueAt, schedule.timezone)} while I was offline, too long ago to ask it now, so it was skipped.` +
            (next === undefined ? '' : ` It runs next on ${formatInZone(next, schedule.timezone)}.`),
        },
      };
    }
    const delivery = deliveries[platformOfKey(schedule.key)];
    const lookUp = delivery?.lookUp?.bind(delivery);
    // The creator's rights as they are now: the access lists and admin checks see today's, not those kept.
    const { asker, unknown, gone } = await currentAsker(schedule, lookUp, logger);
    if (gone || !(await deps.allowed(asker, schedule.key))) {
      // Refused only for want of rights the platform could not confirm: left claimed, tried again after the lease.
      if (unknown)
        throw new Error(
          'the creator’s rights could not be looked up, and without them they may not ask there',
        );
      return {
        schedule,
        settlement: { id: schedule.id, dueAt, next: { at: dueAt, paused: true } },
        action: {
          log: 'paused a schedule whose creator may no longer ask there',
          tell: `Your scheduled question "${schedule.question}" (${schedule.id}) did not run: you can no longer ask me there, so it is paused. Cancel it with /schedule cancel ${schedule.id}.`,
        },
      };
    }
    return {
      schedule,
      settlement: moved,
      action: { deliver: scheduleRun(schedule, asker) },
    };
  }

  /** Settles a batch of claimed runs in one write, then asks (or tells) those this replica still held. */
  async function fire(claimed: readonly Schedule[]): Promise<number> {
    const decided = await Promise.all(
      claimed.map((s) =>
        decide(s).catch((err: unknown) => {
          // Left claimed: another pass takes it once the lease runs out.
          logger?.error({ id: s.id, err }, 'could not decide on a due schedule');
          return undefined;
        }),
      ),
    );
    const decisions = decided.filter((d): d is Decision => d !== undefined);
    // Settled before anything is asked: a replica that lost its claim meanwhile finds it gone and asks nothing.
    const settled = new Set(
      await store.settleSchedules(
        owner,
        decisions.map((d) => d.settlement),
      ),
    );
    let started = 0;
    for (const { schedule, action } of decisions) {
      if (!settled.has(schedule.id)) continue;
      if ('tell' in action) {
        logger?.info({ id: schedule.id }, action.log);
        tell(schedule, action.tell);
        continue;
      }
      const delivery = deliveries[platformOfKey(schedule.key)];
      if (!delivery) continue;
      started++;
      track(
        delivery
          .deliver(action.deliver)
          .catch((err: unknown) =>
            logger?.error({ id: schedule.id, err }, 'a scheduled run could not be delivered'),
          ),
      );
    }
    return started;
  }

  async function pass(): Promise<number> {
    const platforms = Object.entries(deliveries)
      .filter(([, delivery]) => delivery.ready?.() ?? true)
      .map(([platform]) => platform);
    let started = 0;
    for (;;) {
      const claimed = await store.claimDueSchedules({ now: now(), leaseMs, owner, platforms, limit: batch });
      started += await fire(claimed);
      if (claimed.length < batch || stopped) return started;
    }
  }

  const tick = () => {
    // One pass at a time per replica; a tick asked for meanwhile runs after it.
    const run = (ticking ?? Promise.resolve(0)).catch(() => 0).then(pass);
    ticking = run;
    run
      .finally(() => {
        if (ticking === run) ticking = undefined;
      })
      .catch(() => undefined);
    return run;
  };

  const arm = () => {
    if (stopped || pollMs <= 0) return;
    // Polls just after each whole interval of the wall clock: runs are due on whole minutes, so the first
    // poll after one comes a few milliseconds after it, on every replica.
    timer = setTimeout(
      () => {
        tick()
          .catch((err: unknown) => logger?.error({ err }, 'could not read the due schedules'))
          .finally(arm);
      },
      pollMs - (Date.now() % pollMs) + POLL_OFFSET_MS,
    );
    timer.unref?.();
  };

  return {
    start(given) {
      deliveries = given;
      stopped = false;
      if (timer === undefined) arm();
    },
    delivers: (platform) => platform in deliveries,
    tick,
    async idle() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      await ticking?.catch(() => undefined);
      await store
        .releaseScheduleClaims(owner)
        .catch((err: unknown) => logger?.warn({ err }, 'could not give back schedule claims'));
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}
