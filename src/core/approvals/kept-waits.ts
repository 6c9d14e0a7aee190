import type { Logger } from '../logger.js';
import type { ApprovalWait, ApprovalWaitStore, WaitDecision } from '../ports/approval-wait-store.js';
import type { ApprovalSettings } from './approval-policy.js';
import type { GatedRun, WaitingCall } from './approvals.js';
import { serializeWaitState, type WaitState } from './wait-state.js';

/** A call about to wait, as it is kept. */
export interface WaitToKeep {
  id: string;
  runId: string;
  tool: string;
  requestedAt: number;
  expiresAt: number;
  /** Read only when the call is kept: what resuming its run needs. */
  state: () => Promise<WaitState>;
}

/**
 * Waiting calls kept in the store, so that a press on any replica reaches them and a restart loses none.
 * Without a store every operation does nothing (a call then waits in this process only).
 */
export interface KeptWaits {
  /** Keeps a waiting call; false when it is kept in this process only (no store, not resumable, or it failed). */
  keep(run: GatedRun, wait: WaitToKeep): Promise<boolean>;
  /**
   * A kept wait still to be decided; undefined when there is none, its time is up (its process is gone, so
   * no timer of its own expired it) or it cannot be read.
   */
  undecided(id: string): Promise<ApprovalWait | undefined>;
  /** Decides a kept wait for everyone: exactly one decision wins, across processes. */
  decide(id: string, decision: WaitDecision): Promise<ApprovalWait | 'lost' | 'failed'>;
  /** Forgets a kept wait (not awaited; a failure is logged). */
  drop(id: string): void;
  /** A kept wait as its approval message shows it. */
  shown(wait: ApprovalWait, state: WaitState | undefined): WaitingCall;
}

/** What the kept waits need. */
export interface KeptWaitsDeps {
  waits?: ApprovalWaitStore | undefined;
  settings: ApprovalSettings;
  /** This process's name on the calls it waits on. */
  owner: string;
  now: () => number;
  logger?: Logger | undefined;
}

/** Creates the kept waits over `waits`. */
export function createKeptWaits(deps: KeptWaitsDeps): KeptWaits {
  const { waits, logger, now } = deps;
  return {
    async keep(run, wait) {
      if (!waits || !run.resumable) return false;
      try {
        await waits.saveWait({
          id: wait.id,
          runId: wait.runId,
          platform: run.platform,
          key: run.key,
          tool: wait.tool,
          asker: run.asker?.principal,
          requestedAt: wait.requestedAt,
          expiresAt: wait.expiresAt,
          owner: deps.owner,
          seenAt: now(),
          state: serializeWaitState(await wait.state()),
        });
        return true;
      } catch (err) {
        logger?.warn(
          { key: run.key, tool: wait.tool, err },
          'could not keep a waiting tool call; it waits in this process only',
        );
        return false;
      }
    },
    async undecided(id) {
      if (!waits) return undefined;
      try {
        const wait = await waits.getWait(id);
        return wait && !wait.decision && wait.expiresAt > now() ? wait : undefined;
      } catch (err) {
        logger?.warn({ id, err }, 'could not read a waiting tool call');
        return undefined;
      }
    },
    async decide(id, decision) {
      try {
        return (await waits?.decideWait(id, decision)) ?? 'lost';
      } catch (err) {
        logger?.warn({ id, err }, 'could not decide a waiting tool call in the store');
        return 'failed';
      }
    },
    drop(id) {
      waits
        ?.dropWait(id)
        .catch((err: unknown) => logger?.warn({ id, err }, 'could not forget a waiting tool call'));
    },
    shown(wait, state) {
      return {
        id: wait.id,
        step: state?.checkpoint.step ?? 0,
        tool: wait.tool,
        input: state?.input,
        approvers: deps.settings.APPROVERS,
        expiresAt: wait.expiresAt,
      };
    },
  };
}
