import { createHash, randomBytes } from 'node:crypto';
import { ShutdownAbort } from '../errors.js';
import type { Asker } from '../governance/asker.js';
import { type Principal, principalPlatform, principalUser } from '../governance/principal.js';
import type { Logger } from '../logger.js';
import type { ApprovalRecord, ApprovalStore } from '../ports/approval-store.js';
import type { ApprovalWait, ApprovalWaitStore, WaitDecision } from '../ports/approval-wait-store.js';
import type { ApprovalGate } from './approval-gate.js';
import { type ApprovalSettings, approvalOf } from './approval-policy.js';
import { APPROVAL_EXPIRED, approvalForbidden, approvalNote } from './approval-wording.js';
import { createOrphanSweeper, type RunResumer, WAIT_BEAT_MS, WAIT_STALE_MS } from './orphan-sweeper.js';

import {
  parseWaitState,
  type ResumableRun,
  serializeWaitState,
  verdictOf,
  type WaitState,
} from './wait-state.js';

/** Who pressed Approve or Deny: their principal, the name the steps show, and the platform's admin say. */
export interface Approver {
  principal: Principal;
  name: string;
  platformAdmin?: Asker['platformAdmin'];
}

/** A press: approve, or deny with an optional reason the model reads. */
export type ApprovalVerdict = { approve: true } | { approve: false; reason?: string | undefined };

/** What a press did; `message` is the private line for a press that did nothing. */
export type ApprovalPress =
  | {
      status: 'approved' | 'denied';
      /**
       * The decided call's run is not in this process (another replica's, or one that stopped): nothing here
       * updates its approval message, so the platform says how it ended there (`note`) and drops its buttons.
       */
      elsewhere?: DecidedElsewhere | undefined;
    }
  | { status: 'forbidden' | 'expired'; message: string };

/** The call a pending approval waits on, for one who may decide it; else why they may not see it. */
export type ApprovalCallView =
  | { status: 'allowed'; tool: string; input: unknown }
  | { status: 'forbidden' | 'expired'; message: string };

/** A call waiting for a person as its approval message shows it. */
export interface WaitingCall {
  id: string;
  step: number;
  tool: string;
  input: unknown;
  approvers: ApprovalSettings['APPROVERS'];
  expiresAt: number;
}

/** A call decided for a run not in this process: its approval message as it was, and how it ended. */
export interface DecidedElsewhere {
  note: string;
  call: WaitingCall;
}

/** The run a gate guards: where it answers and who asked. */
export interface GatedRun {
  platform: string;
  key: string;
  /** Whose grants apply (a thread's channel); `key` when unset. */
  settingsKey?: string | undefined;
  asker?: Pick<Asker, 'principal'> | undefined;
  /** What resuming the run needs if its process stops while a call waits; such calls do not outlive it when unset. */
  resumable?: (() => Promise<ResumableRun>) | undefined;
}

/** Tool calls that wait for a person, the presses that decide them, and the record of every decision. */
export interface Approvals {
  readonly settings: ApprovalSettings;
  /** The gate for one run. */
  gateFor(run: GatedRun): ApprovalGate;
  /** Decides pending approval `id` for `who`; acts once, and only for those APPROVERS names. */
  decide(id: string, who: Approver, verdict: ApprovalVerdict): Promise<ApprovalPress>;
  /**
   * Whether `who` may decide `id` now, without deciding it: a platform asks before it opens a form for the
   * reason of a denial, so only those who may deny see one.
   */
  check(id: string, who: Approver): Promise<ApprovalPress | { status: 'allowed' }>;
  /** The tool and whole arguments of pending approval `id`, for one who may decide it. */
  call(id: string, who: Approver): Promise<ApprovalCallView>;
  /** Calls waiting for a person now. */
  pending(): number;
  /**
   * Calls of `key` kept from a process that stopped while they waited (no run here waits on them): what a
   * platform that cannot keep buttons across a restart (the terminal) asks about again.
   */
  kept(key: string): Promise<WaitingCall[]>;
  /** Goes on with orphaned runs through `resumer` from now on (once the platforms are up). */
  start(resumer: RunResumer): void;
  /** Says this process still waits on its calls, learns of decisions made elsewhere, takes over orphans. */
  sweep(): Promise<void>;
  /** Stops sweeping and waits for runs being resumed to be handed over. */
  stop(): Promise<void>;
  /** The latest decisions of the last 30 days (admins' `/usage`); none when decisions are not kept. */
  recent(limit: number): Promise<ApprovalRecord[]>;
}

/** What the approvals need. */
export interface ApprovalsDeps {
  settings: ApprovalSettings;
  /** Where decisions and grants are kept; without it decisions are only logged and nothing is granted. */
  store?: ApprovalStore | undefined;
  /**
   * Where waiting calls are kept, so that a press on any replica reaches them and a restart loses none;
   * without it a call waits in this process only.
   */
  waits?: ApprovalWaitStore | undefined;
  isAdmin: (who: Asker) => Promise<boolean>;
  logger?: Logger | undefined;
  now?: (() => number) | undefined;
  /** This process's name on the calls it waits on; random when unset. */
  owner?: string | undefined;
  /** How often this process says it still waits on its calls and looks for orphans (ms); 0: only on `sweep`. */
  beatMs?: number | undefined;
  /** Calls whose process has not been heard from for this long are orphans (ms). */
  staleMs?: number | undefined;
}

interface Pending {
  run: GatedRun;
  tool: string;
  input: unknown;
  digest: string;
  requestedAt: number;
  /** Kept in the store (others can decide it, a restart keeps it). */
  durable: boolean;
  /** Ends the wait here; `kept` leaves it in the store for the next start (a shutdown), unrecorded. */
  settle(decision: WaitDecision, recorded: boolean, kept?: boolean): void;
  settled: boolean;
}

/** What a decision record is made from. */
type Decided = Pick<ApprovalRecord, 'requestedAt' | 'platform' | 'key' | 'tool' | 'argsDigest' | 'asker'>;

/**
 * Creates the approvals. A waiting call lives in this process and, with a store, in the database too: a
 * press on another replica decides it there (its process learns of it within `beatMs`), and when its
 * process is gone (a restart, a crash) the decided call's run goes on in a process that can answer on its
 * platform (`start`), exactly once.
 */
export function createApprovals(deps: ApprovalsDeps): Approvals {
  const { settings, store, waits, logger } = deps;
  const now = deps.now ?? Date.now;
  const owner = deps.owner ?? `replica-${randomBytes(6).toString('hex')}`;
  const pending = new Map<string, Pending>();

  const record = (id: string, of: Decided, decision: WaitDecision) => {
    const entry: ApprovalRecord = {
      id,
      at: decision.at,
      ...of,
      decidedBy: decision.by,
      outcome: decision.outcome,
      reason: decision.reason,
    };
    logger?.info(
      { id, key: entry.key, tool: entry.tool, outcome: entry.outcome, by: entry.decidedBy },
      'tool call approval decided',
    );
    store
      ?.recordApproval(entry)
      .catch((err: unknown) => logger?.error({ id, err }, 'could not record an approval'));
  };
  const decidedOf = (entry: Pending): Decided => ({
    requestedAt: entry.requestedAt,
    platform: entry.run.platform,
    key: entry.run.key,
    tool: entry.tool,
    argsDigest: entry.digest,
    asker: entry.run.asker?.principal,
  });

  const granted = async (settingsKey: string, tool: string): Promise<boolean> => {
    if (!store) return false;
    try {
      return (await store.approvalGrants(settingsKey)).some((g) => g.tool === tool);
    } catch (err) {
      logger?.warn({ settingsKey, err }, 'could not read approval grants; asking');
      return false;
    }
  };

  const mayDecide = async (asker: string | undefined, who: Approver): Promise<boolean> => {
    if (settings.APPROVERS !== 'admins' && asker !== undefined && who.principal === asker) return true;
    if (settings.APPROVERS === 'asker') return false;
    return deps.isAdmin({
      platform: principalPlatform(who.principal),
      userId: principalUser(who.principal),
      principal: who.principal,
      dm: false,
      platformAdmin: who.platformAdmin,
    });
  };

  /**
   * A stored wait no process here waits on, still to be decided; undefined when there is none, its time is up
   * (its process is gone, so no timer of its own expired it) or it cannot be read.
   */
  const storedWait = async (id: string): Promise<ApprovalWait | undefined> => {
    if (!waits) return undefined;
    try {
      const wait = await waits.getWait(id);
      return wait && !wait.decision && wait.expiresAt > now() ? wait : undefined;
    } catch (err) {
      logger?.warn({ id, err }, 'could not read a waiting tool call');
      return undefined;
    }
  };

  /** The waiting call `who` may decide (here, or kept by another process), or the private line saying why not. */
  const decidable = async (
    id: string,
    who: Approver,
  ): Promise<
    | { entry: Pending }
    | { wait: ApprovalWait; state: WaitState | undefined }
    | { status: 'forbidden' | 'expired'; message: string }
  > => {
    const entry = pending.get(id);
    const wait = entry ? undefined : await storedWait(id);
    if (entry?.settled || (!entry && !wait)) return { status: 'expired', message: APPROVAL_EXPIRED };
    if (!(await mayDecide(entry ? entry.run.asker?.principal : wait?.asker, who))) {
      return { status: 'forbidden', message: approvalForbidden(settings.APPROVERS) };
    }
    if (entry) return { entry };
    return { wait: wait as ApprovalWait, state: parseWaitState(wait as ApprovalWait) };
  };

  /** Decides a stored wait for everyone: exactly one decision wins, across processes. */
  const decideStored = async (
    id: string,
    decision: WaitDecision,
  ): Promise<ApprovalWait | 'lost' | 'failed'> => {
    try {
      return (await waits?.decideWait(id, decision)) ?? 'lost';
    } catch (err) {
      logger?.warn({ id, err }, 'could not decide a waiting tool call in the store');
      return 'failed';
    }
  };

  const drop = (id: string) =>
    waits
      ?.dropWait(id)
      .catch((err: unknown) => logger?.warn({ id, err }, 'could not forget a waiting tool call'));

  const sweeper = waits
    ? createOrphanSweeper({
        waits,
        owner,
        now,
        beatMs: deps.beatMs ?? WAIT_BEAT_MS,
        staleMs: deps.staleMs ?? WAIT_STALE_MS,
        timeoutMs: settings.APPROVAL_TIMEOUT_MS,
        waitingHere: () => [...pending.values()].some((p) => p.durable),
        settleHere: (id, decision) => pending.get(id)?.settle(decision, true),
        record: (wait, state, decision) => record(wait.id, waitDecided(wait, state), decision),
        logger,
      })
    : undefined;
  const sweep = async () => sweeper?.sweep();

  return {
    settings,
    pending: () => pending.size,
    async kept(key) {
      if (!waits) return [];
      const at = now();
      return (await waits.waitsIn(key))
        .filter((w) => !pending.has(w.id) && w.expiresAt > at)
        .map((wait) => waitingCallOf(wait, parseWaitState(wait)));
    },
    async recent(limit) {
      if (!store) return [];
      const until = now() + 1;
      return store.listApprovals({ since: until - 30 * 86_400_000, until, limit });
    },
    start(resumer) {
      sweeper?.start(resumer);
    },
    sweep,
    async stop() {
      await sweeper?.stop();
    },
    gateFor(run) {
      const settingsKey = run.settingsKey ?? run.key;
      const runId = randomBytes(9).toString('base64url');
      return async (call, context) => {
        const policy = approvalOf(call.tool, settings);
        if (policy === 'never') return { run: true };
        if (policy === 'once-per-channel' && (await granted(settingsKey, call.tool.name)))
          return { run: true };
        if (context.signal.aborted) throw context.signal.reason;
        let id = randomBytes(9).toString('base64url');
        while (pending.has(id)) id = randomBytes(9).toString('base64url');
        const tool = call.tool.name;
        const requestedAt = now();
        const expiresAt = requestedAt + settings.APPROVAL_TIMEOUT_MS;
        const resume = context.pause();
        try {
          // Kept before anyone can press: a press must never find the call neither here nor in the store.
          const durable = await keep(run, {
            id,
            runId,
            tool,
            requestedAt,
            expiresAt,
            state: async () => ({
              run: await (run.resumable as () => Promise<ResumableRun>)(),
              callId: call.callId,
              input: call.input,
              checkpoint: context.checkpoint(),
            }),
          });
          if (context.signal.aborted) {
            if (durable) void drop(id);
            throw context.signal.reason;
          }
          let wasKept = false;
          const decided = await new Promise<WaitDecision>((resolve) => {
            const entry: Pending = {
              run,
              tool,
              input: call.input,
              digest: argumentsDigest(call.input),
              requestedAt,
              durable,
              settled: false,
              settle(decision, recorded, kept) {
                if (entry.settled) return;
                entry.settled = true;
                wasKept = kept === true;
                pending.delete(id);
                clearTimeout(timeout);
                context.signal.removeEventListener('abort', onAbort);
                if (kept) return resolve(decision);
                if (!recorded) record(id, decidedOf(entry), decision);
                if (entry.durable) void drop(id);
                resolve(decision);
              },
            };
            // Shut down (not stopped): a kept call outlives the process, and a press after the restart goes on.
            const onAbort = () =>
              entry.settle(
                { outcome: 'stopped', at: now() },
                false,
                entry.durable && context.signal.reason instanceof ShutdownAbort,
              );
            const onTimeout = async () => {
              const expired: WaitDecision = { outcome: 'expired', at: now() };
              const won = entry.durable ? await decideStored(id, expired) : 'failed';
              if (won !== 'lost') return entry.settle(expired, false);
              // Someone decided on another replica just before: theirs stands.
              const wait = await waits?.getWait(id).catch(() => undefined);
              entry.settle(wait?.decision ?? expired, false);
            };
            const timeout = setTimeout(() => void onTimeout(), settings.APPROVAL_TIMEOUT_MS);
            pending.set(id, entry);
            context.signal.addEventListener('abort', onAbort, { once: true });
            context.emit({
              type: 'approval',
              step: call.step,
              callId: call.callId,
              id,
              tool,
              input: call.input,
              approvers: settings.APPROVERS,
              expiresAt,
            });
          });
          if (decided.outcome === 'stopped' && wasKept) {
            logger?.info(
              { id, key: run.key, tool },
              'shutting down: a tool call waiting for approval is kept',
            );
            throw context.signal.reason;
          }
          context.emit({
            type: 'approval_decided',
            id,
            callId: call.callId,
            tool,
            outcome: decided.outcome,
            ...(decided.byName ? { by: decided.byName } : {}),
            ...(decided.reason ? { reason: decided.reason } : {}),
          });
          if (decided.outcome === 'stopped') throw context.signal.reason;
          if (decided.outcome === 'approved' && policy === 'once-per-channel' && store && decided.by) {
            await store
              .grantApproval({ settingsKey, tool, grantedBy: decided.by, at: now() })
              .catch((err: unknown) => logger?.error({ settingsKey, tool, err }, 'could not grant a tool'));
          }
          return verdictOf(tool, decided, settings.APPROVAL_TIMEOUT_MS);
        } finally {
          resume();
        }
      };
    },
    async check(id, who) {
      const found = await decidable(id, who);
      return 'status' in found ? found : { status: 'allowed' };
    },
    async call(id, who) {
      const found = await decidable(id, who);
      if ('status' in found) return found;
      if ('entry' in found) return { status: 'allowed', tool: found.entry.tool, input: found.entry.input };
      return found.state
        ? { status: 'allowed', tool: found.wait.tool, input: found.state.input }
        : { status: 'expired', message: APPROVAL_EXPIRED };
    },
    async decide(id, who, verdict) {
      const found = await decidable(id, who);
      if ('status' in found) return found;
      const reason = verdict.approve
        ? undefined
        : verdict.reason?.trim().slice(0, MAX_REASON_CHARS) || undefined;
      const decision: WaitDecision = {
        outcome: verdict.approve ? 'approved' : 'denied',
        at: now(),
        by: who.principal,
        byName: who.name,
        ...(reason ? { reason } : {}),
      };
      const status = decision.outcome as 'approved' | 'denied';
      if ('entry' in found) {
        const { entry } = found;
        // Another press, the timeout or Stop may have settled it meanwhile, here or on another replica.
        if (entry.settled || (entry.durable && (await decideStored(id, decision)) === 'lost'))
          return { status: 'expired', message: APPROVAL_EXPIRED };
        // Settled meanwhile, it was by the timeout finding this decision in the store: it stands.
        entry.settle(decision, false);
        return { status };
      }
      // Kept by another process: decided in the store, where its process (or, if it is gone, a sweep) takes it.
      const won = await decideStored(id, decision);
      if (typeof won === 'string') return { status: 'expired', message: APPROVAL_EXPIRED };
      if (found.state) record(id, waitDecided(won, found.state), decision);
      void sweep();
      return {
        status,
        elsewhere: {
          note: approvalNote(won.tool, status, who.name, reason),
          call: waitingCallOf(won, found.state),
        },
      };
    },
  };

  /** A stored wait as its approval message shows it. */
  function waitingCallOf(wait: ApprovalWait, state: WaitState | undefined): WaitingCall {
    return {
      id: wait.id,
      step: state?.checkpoint.step ?? 0,
      tool: wait.tool,
      input: state?.input,
      approvers: settings.APPROVERS,
      expiresAt: wait.expiresAt,
    };
  }

  /** Keeps a waiting call in the store; false when it is kept in this process only. */
  async function keep(
    run: GatedRun,
    wait: {
      id: string;
      runId: string;
      tool: string;
      requestedAt: number;
      expiresAt: number;
      state: () => Promise<WaitState>;
    },
  ): Promise<boolean> {
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
        owner,
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
  }
}

/** The record fields of a stored wait. */
function waitDecided(wait: ApprovalWait, state: WaitState): Decided {
  return {
    requestedAt: wait.requestedAt,
    platform: wait.platform,
    key: wait.key,
    tool: wait.tool,
    argsDigest: argumentsDigest(state.input),
    asker: wait.asker,
  };
}

/** The longest denial reason kept and shown to the model. */
export const MAX_REASON_CHARS = 1000;

/** SHA-256 (hex) of a call's arguments as JSON: identifies the call in the record without keeping it. */
export function argumentsDigest(input: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(input) ?? 'null')
    .digest('hex');
}
