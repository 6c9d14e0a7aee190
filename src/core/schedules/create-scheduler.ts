import { randomBytes } from 'node:crypto';
import type { ResumedRun } from '../approvals/wait-state.js';
import type { Asker } from '../governance/asker.js';
import type { Logger } from '../logger.js';
import type { Schedule, ScheduleSettlement, ScheduleStore } from '../ports/schedule-store.js';
import { type CreatorRights, currentAsker } from './creator-rights.js';
import { platformOfKey } from './platform-of-key.js';
import { formatInZone, nextAfter } from './schedule-time.js';

/** One run of a schedule, taken by this replica: what a platform asks, in which conversation, as whom. */
export interface ScheduledRun {
  schedule: Schedule;
  /** The asker the run is asked as: the schedule's creator, with their rights looked up as it fires. */
  asker: Asker;
  /** When it was due (ms). */
  dueAt: number;
  /** A one-off reminder: the answer mentions its creator. */
  reminder: boolean;
  /**
   * Not a schedule's run: a run taken over after its process stopped while its tool calls waited for a
   * person, going on in the conversation it was asked in (see approvals/resume-through.ts).
   */
  resume?: ResumedRun | undefined;
}

/** How a platform starts a scheduled run in a conversation, and tells a schedule's creator something. */
export interface ScheduleDeliverer {
  /** Asks the run's question in its conversation, as its creator; resolves when the run has ended. */
  deliverScheduled(run: ScheduledRun): Promise<void>;
  /** Tells the creator, as privately as the platform allows, what became of their schedule. */
  tellScheduleCreator(schedule: Schedule, text: string): Promise<void>;
  /** Whether it can deliver now (connected); runs are left for another replica while it cannot. */
  ready?(): boolean;
  /**
   * Today's admin rights and roles of a schedule's creator, looked up on the platform at each run (a
   * demoted creator's schedule no longer runs as an admin). Without it, or when it rejects, the run gets
   * no admin rights or roles from the platform.
   */
  lookUpCreator?(schedule: Schedule): Promise<CreatorRights>;
}

/** Fires due schedules: claimed once across replicas, checked against the access lists, then delivered. */
export interface Scheduler {
  /** Starts firing through these platforms' deliverers (by platform name); polls unless `pollMs` is 0. */
  start(deliverers: Readonly<Record<string, ScheduleDeliverer>>): void;
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
  let deliverers: Readonly<Record<string, ScheduleDeliverer>> = {};
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  let ticking: Promise<number> | undefined;
  const inFlight = new Set<Promise<void>>();

  const track = (work: Promise<void>) => {
    const tracked = work.finally(() => inFlight.delete(tracked));
    inFlight.add(tracked);
  };
  const tell = (schedule: Schedule, text: string) => {
    const deliverer = deliverers[platformOfKey(schedule.key)];
    if (!deliverer) return;
    track(
      deliverer
        .tellScheduleCreator(schedule, text)
        .catch((err: unknown) =>
          logger?.warn({ id: schedule.id, err }, 'could not tell a schedule’s creator'),
        ),
    );
  };

  /** What becomes of a claimed run: how it is settled, then what is done once it is. */
  type Decision = {
    schedule: Schedule;
    settlement: ScheduleSettlement;
    action: { deliver: ScheduledRun } | { tell: string; log: string };
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
    const deliverer = deliverers[platformOfKey(schedule.key)];
    const lookUp = deliverer?.lookUpCreator ? (s: Schedule) => deliverer.lookUpCreator!(s) : undefined;
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
      action: { deliver: { schedule, asker, dueAt, reminder: schedule.cron === null } },
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
      const deliverer = deliverers[platformOfKey(schedule.key)];
      if (!deliverer) continue;
      started++;
      track(
        deliverer
          .deliverScheduled(action.deliver)
          .catch((err: unknown) =>
            logger?.error({ id: schedule.id, err }, 'a scheduled run could not be delivered'),
          ),
      );
    }
    return started;
  }

  async function pass(): Promise<number> {
    const platforms = Object.entries(deliverers)
      .filter(([, deliverer]) => deliverer.ready?.() ?? true)
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
      deliverers = given;
      stopped = false;
      if (timer === undefined) arm();
    },
    delivers: (platform) => platform in deliverers,
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
