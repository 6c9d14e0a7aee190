import type { ResumedRun } from '../approvals/wait-state.js';
import type { Asker } from '../governance/asker.js';
import type { Schedule } from './schedule-store.js';

/**
 * Why the system starts a run nobody just asked for: one case per kind, carrying what that kind is about.
 * A new kind is one more case here and one in the line shown above its answer
 * (platforms/shared/system-run-heading.ts); every platform then delivers it as it delivers the others.
 */
export type SystemRunReason =
  /** A schedule came due: a one-off reminder when it has no cron expression. */
  | { kind: 'schedule'; schedule: Schedule }
  /** A run whose process stopped while its tool calls waited for a person, going on where it was asked. */
  | { kind: 'resume'; resumed: ResumedRun };

/** Whom the system acts for, and where: a person in one conversation. */
export interface SystemRunFor {
  /** The platform that delivers it (`discord`, `slack`, `web`, `console`). */
  platform: string;
  /** The conversation it answers in; the platform finds its place (channel, thread) from it. */
  key: string;
  /** Whose settings apply (a thread's parent channel). */
  settingsKey: string;
  /** Who it runs as, with the rights it runs with. */
  asker: Asker;
  /** Their display name. */
  author: string;
}

/** A run the system starts on someone's behalf, nobody having just asked: who, where, what and why. */
export interface SystemRun extends SystemRunFor {
  /** The question asked (a resumed run goes on from its checkpoint instead). */
  question: string;
  why: SystemRunReason;
}

/** What the platform says today of a person a run is for: their admin rights and roles there. */
export interface PlatformRights {
  /** Administers the place by the platform's own account (Discord Manage Server, Slack admin or owner). */
  platformAdmin: boolean;
  /** Discord role IDs they hold now; absent where the platform has none. */
  roles?: readonly string[] | undefined;
  /** False when they are no longer there (left the server, deactivated): their runs stop like a blocked person's. */
  member?: boolean | undefined;
}

/** How a platform starts runs nobody just asked for: implemented once per platform, for every kind. */
export interface SystemRunDelivery {
  /** Asks the run's question in its conversation, as its asker; resolves when the run has ended. */
  deliver(run: SystemRun): Promise<void>;
  /** Tells the person a run is for, as privately as the platform allows, what became of it (skipped, paused). */
  tell(run: SystemRun, text: string): Promise<void>;
  /** Whether it can deliver now (connected); runs are left for another replica while it cannot. */
  ready?(): boolean;
  /**
   * The person's admin rights and roles on the platform today, in the run's place (a demoted creator's
   * schedule no longer runs as an admin). Without it, or when it rejects, the run gets none from the platform.
   */
  lookUp?(whom: SystemRunFor): Promise<PlatformRights>;
}

/** The deliveries of the platforms this process runs, by platform name. */
export type SystemRunDeliveries = Readonly<Record<string, SystemRunDelivery>>;
