import type { Agent } from '../agent/types.js';
import type { Approvals } from '../approvals/approvals.js';
import type { Governor } from '../governance/governor.js';
import type { InputSettings } from '../input/types.js';
import type { Logger } from '../logger.js';
import type { MemoryCommands } from '../memory/memory-commands.js';
import type { ChannelMemory } from '../memory/types.js';
import type { FeedbackStore } from '../ports/feedback-store.js';
import type { RunObserver } from '../ports/run-observer.js';
import type { RunQueue } from '../ports/run-queue.js';
import type { ToolSource } from '../ports/tool-source.js';
import type { RunPlaces } from '../schedules/run-places.js';
import type { ScheduleCommandPlace } from '../schedules/schedule-commands.js';
import type { SettingsService } from '../settings/settings-service.js';
import type { RunLogKeeper } from './run-log-start.js';
import type { RunQueueLimits } from './run-queue.js';

/** Dependencies of the assistant service. */
export interface AssistantDeps {
  agent: Agent;
  memory: ChannelMemory;
  limits: RunQueueLimits;
  /** The per-channel line; in memory (from `limits`) when unset. */
  queue?: RunQueue | undefined;
  /** Access lists, limits and usage records; without it every ask is let through unrecorded. */
  governor?: Governor | undefined;
  /** Told of every governed question as it ends (metrics). */
  observer?: RunObserver | undefined;
  logger?: Logger | undefined;
  /** What `/tools` reports; none when unset. */
  tools?: ToolSource | undefined;
  /** Per-channel settings; without it every channel runs with the defaults and `/settings` is unavailable. */
  settings?: SettingsService | undefined;
  /** Where each run's steps are kept for the admin page; none are kept when unset (RUN_LOG_RETENTION_DAYS=0). */
  runLogs?: RunLogKeeper | undefined;
  /** Where votes on answers are kept; without it they are only logged. */
  feedback?: FeedbackStore | undefined;
  now?: () => number;
  /** Budgets of thread context and attachments, and whether the model sees images. */
  input?: InputSettings | undefined;
  /** `/memory notes|remember|forget|forget-me`; unavailable when unset. */
  memoryCommands?: MemoryCommands | undefined;
  /** Called once at close (the archive's retention timer). */
  onClose?: (() => void) | undefined;
  /**
   * The model a run asking for `model` starts on (a fallback's while the primary is kept out, LLM_FALLBACK):
   * what its usage record names. `model` itself when unset.
   */
  startingModel?: ((model: string) => string) | undefined;
  /** Told who asks in each conversation while its run lasts (the `schedule` tool schedules as them). */
  runPlaces?: RunPlaces | undefined;
  /** `/schedule list|cancel|add`; unavailable when unset. */
  scheduleCommand?: ((place: ScheduleCommandPlace, args: string) => Promise<string>) | undefined;
  /** Tool calls that wait for a person's approval; every call runs at once when unset. */
  approvals?: Approvals | undefined;
  /** `/settings approvals …` (admin checks are the assistant's); unavailable when unset. */
  approvalsCommand?: ((settingsKey: string, args: string) => Promise<string>) | undefined;
}
