import type { Logger } from '../logger.js';
import type { ApprovalWait, ApprovalWaitStore, WaitDecision } from '../ports/approval-wait-store.js';
import type { GateVerdict } from './approval-gate.js';
import {
  parseWaitState,
  type ResumedOutcome,
  type ResumedRun,
  verdictOf,
  type WaitState,
} from './wait-state.js';

/** Goes on with runs whose process stopped while their calls waited (a platform answers where they were asked). */
export interface RunResumer {
  /** The platforms this process can answer on. */
  platforms: readonly string[];
  resume(run: ResumedRun): Promise<void>;
}

/** Default heartbeat of the calls a process waits on; a press made on another replica arrives within it. */
export const WAIT_BEAT_MS = 2_000;
/** Default silence after which a process's waiting calls are orphans another process takes over. */
export const WAIT_STALE_MS = 10_000;

/** Orphaned calls taken over per sweep. */
const ORPHANS_PER_SWEEP = 20;

/** What the sweeper needs: the kept calls, this process's name and clock, and its own waiting calls. */
export interface OrphanSweeperDeps {
  waits: ApprovalWaitStore;
  owner: string;
  now: () => number;
  /** How often it sweeps (ms); 0: only when `sweep` is called. */
  beatMs: number;
  /** Calls whose process has not been heard from for this long are orphans (ms). */
  staleMs: number;
  /** APPROVAL_TIMEOUT_MS, named in what the model reads of an expired call. */
  timeoutMs: number;
  /** Whether this process waits on kept calls (it then says so at each sweep). */
  waitingHere(): boolean;
  /** Settles a call this process waits on with a decision made on another replica (already recorded). */
  settleHere(id: string, decision: WaitDecision): void;
  /** Records a decision the sweeper made (an orphan's expiry). */
  record(wait: ApprovalWait, state: WaitState, decision: WaitDecision): void;
  logger?: Logger | undefined;
}

/**
 * Looks after kept calls: says this process still waits on its own (and learns of decisions made on other
 * replicas), and takes over the decided or expired calls of processes that stopped, going on with their runs
 * through the resumer, exactly once across processes.
 */
export interface OrphanSweeper {
  /** Goes on with orphaned runs through `resumer` from now on (once the platforms are up). */
  start(resumer: RunResumer): void;
  /** One sweep now; asked for while one runs, one more runs after it. */
  sweep(): Promise<void>;
  /** Stops sweeping and waits for runs being resumed to be handed over. */
  stop(): Promise<void>;
}

/** Creates the sweeper, sweeping every `beatMs`. */
export function createOrphanSweeper(deps: OrphanSweeperDeps): OrphanSweeper {
  const { waits, owner, now, logger } = deps;
  let resumer: RunResumer | undefined;
  let sweeping: Promise<void> | undefined;
  let again: Promise<void> | undefined;
  const resuming = new Set<Promise<void>>();

  const heartbeat = async () => {
    if (!deps.waitingHere()) return;
    for (const { id, decision } of await waits.touchWaits(owner, now())) deps.settleHere(id, decision);
  };

  const adopt = async () => {
    if (!resumer || resumer.platforms.length === 0) return;
    const at = now();
    const taken = await waits.claimOrphans({
      staleBefore: at - deps.staleMs,
      now: at,
      platforms: resumer.platforms,
      limit: ORPHANS_PER_SWEEP,
    });
    const runs = new Map<string, ApprovalWait[]>();
    for (const wait of taken) runs.set(wait.runId, [...(runs.get(wait.runId) ?? []), wait]);
    for (const group of runs.values()) {
      const done = resumeRun(group, at)
        .catch((err: unknown) => logger?.error({ key: group[0]?.key, err }, 'could not resume a run'))
        .finally(() => resuming.delete(done));
      resuming.add(done);
    }
  };

  const resumeRun = async (group: ApprovalWait[], at: number) => {
    const states = group.map((wait) => ({ wait, state: parseWaitState(wait) }));
    const first = states.find((s) => s.state)?.state;
    if (!first || !resumer) {
      logger?.warn({ key: group[0]?.key }, 'a waiting tool call could not be read; its run is not resumed');
      return;
    }
    // A run stopped (Stop, shut down) ends there; undecided calls past their time expired.
    if (group.some((w) => w.decision?.outcome === 'stopped')) return;
    const outcomes: ResumedOutcome[] = [];
    const decided = new Map<string, GateVerdict>();
    for (const { wait, state } of states) {
      if (!state) continue;
      let decision = wait.decision;
      if (!decision) {
        if (wait.expiresAt > at) continue; // asked again when the run goes on
        decision = { outcome: 'expired', at };
        deps.record(wait, state, decision);
      }
      outcomes.push({
        id: wait.id,
        callId: state.callId,
        tool: wait.tool,
        requestedAt: wait.requestedAt,
        decision,
      });
      decided.set(state.callId, verdictOf(wait.tool, decision, deps.timeoutMs));
    }
    logger?.info(
      { key: group[0]!.key, calls: outcomes.length },
      'resuming a run whose tool calls waited when its process stopped',
    );
    await resumer.resume({
      platform: group[0]!.platform,
      key: group[0]!.key,
      run: first.run,
      checkpoint: first.checkpoint,
      decided,
      outcomes,
    });
  };

  const sweep = (): Promise<void> => {
    // Asked for while one runs (a press right after it looked): one more runs after it, so nothing waits a beat.
    if (sweeping) {
      again ??= sweeping.then(() => {
        again = undefined;
        return sweep();
      });
      return again;
    }
    sweeping = (async () => {
      try {
        await heartbeat();
        await adopt();
      } catch (err) {
        logger?.warn({ err }, 'could not look after waiting tool calls');
      } finally {
        sweeping = undefined;
      }
    })();
    return sweeping;
  };

  let timer: ReturnType<typeof setInterval> | undefined;
  if (deps.beatMs > 0) {
    timer = setInterval(() => void sweep(), deps.beatMs);
    timer.unref();
  }

  return {
    start(next) {
      resumer = next;
      void sweep();
    },
    sweep,
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      resumer = undefined;
      await sweeping;
      await Promise.all(resuming);
    },
  };
}
