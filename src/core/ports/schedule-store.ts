/** Who created a schedule, as the platform knew them then: what its runs are asked as (a serialisable Asker). */
export interface ScheduleCreator {
  /** `discord`, `slack`, `web`, `console`. */
  platform: string;
  /** The platform's own user ID, for mentions. */
  userId: string;
  /** Access lists, limits, budgets and usage are keyed by it. */
  principal: string;
  /**
   * Where they asked from when a new identity costs nothing (a token browser's `addr:<ip>`): the limit on
   * schedules counts it as well as the person.
   */
  origin?: string | undefined;
  /** The channel the access lists see; absent in a DM. */
  channelId?: string | undefined;
  dm: boolean;
  roles?: readonly string[] | undefined;
  /**
   * Whether the platform called them an admin of the place when they made the schedule: kept for the record;
   * each run looks their rights up again (see schedules/creator-rights.ts).
   */
  platformAdmin?: boolean | undefined;
  platformGated?: boolean | undefined;
  /** Their display name then. */
  name: string;
}

/** A question asked later, once (a reminder) or on a cron expression, in one conversation. */
export interface Schedule {
  /** Short, unguessable enough to type: `/schedule cancel <id>`. */
  id: string;
  /** The conversation it runs in. */
  key: string;
  /** Whose settings apply (a thread's parent channel). */
  settingsKey: string;
  creator: ScheduleCreator;
  question: string;
  /** The cron expression of a recurring question; null for a one-off reminder. */
  cron: string | null;
  /** IANA zone the cron expression and the times shown are read in. */
  timezone: string;
  /** When it runs next (ms); for a paused one, when it would have. */
  nextAt: number;
  /** Set when its creator may no longer ask there: it does not run until replaced. */
  paused: boolean;
  createdAt: number;
}

/** Which schedules `schedules` lists. */
export interface ScheduleFilter {
  key?: string | undefined;
  creator?: string | undefined;
}

/** A due run taken by one replica for `leaseMs`; settled (or its lease expiring) ends the claim. */
export interface ScheduleClaimRequest {
  now: number;
  /** How long the claim holds if the claimer dies before settling it. */
  leaseMs: number;
  /** The claiming replica. */
  owner: string;
  /** Only schedules of these platforms (the ones this replica can deliver to). */
  platforms: readonly string[];
  limit: number;
}

/** How a claimed run ends: moved to its next time, paused, or (a one-off, or nothing next) deleted. */
export interface ScheduleSettlement {
  id: string;
  /** The `nextAt` it was claimed at: settling is a compare-and-set on it and the claimer. */
  dueAt: number;
  next: { at: number; paused?: boolean } | null;
}

/** Scheduled questions: reminders and recurring runs, claimed once across replicas. */
export interface ScheduleStore {
  /**
   * Adds a schedule unless its creator already has `maxPerCreator`, or (when it names one) their origin
   * does; false when either has, counted atomically.
   */
  addSchedule(schedule: Schedule, maxPerCreator: number): Promise<boolean>;
  /** One schedule by id. */
  schedule(id: string): Promise<Schedule | undefined>;
  /** The schedules of a conversation, of a creator, or both; soonest first. */
  schedules(filter: ScheduleFilter): Promise<Schedule[]>;
  /** Removes a schedule; false when there was none. */
  deleteSchedule(id: string): Promise<boolean>;
  /** Claims up to `limit` due, unpaused, unclaimed (or lease-expired) schedules, soonest first. */
  claimDueSchedules(request: ScheduleClaimRequest): Promise<Schedule[]>;
  /**
   * Settles `owner`'s claims in one transaction; resolves with the ids settled. A claim lost meanwhile
   * (another replica took it after the lease, or the schedule was cancelled) is left out.
   */
  settleSchedules(owner: string, settlements: readonly ScheduleSettlement[]): Promise<string[]>;
  /** Gives back this replica's unsettled claims (shutting down), so another replica takes them at once. */
  releaseScheduleClaims(owner: string): Promise<void>;
  /** Every schedule, for copying between stores. */
  allSchedules(): Promise<Schedule[]>;
}
