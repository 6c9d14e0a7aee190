import { randomBytes } from 'node:crypto';
import { ShutdownAbort } from '../errors.js';
import type { Logger } from '../logger.js';
import type { ApprovalStore } from '../ports/approval-store.js';
import type { ApprovalWaitStore, WaitDecision } from '../ports/approval-wait-store.js';
import type { ApprovalGate } from './approval-gate.js';
import { type ApprovalSettings, approvalOf } from './approval-policy.js';
import { argumentsDigest, type Decided } from './approval-record.js';
import type { GatedRun } from './approvals.js';
import type { KeptWaits } from './kept-waits.js';
import { type ResumableRun, verdictOf } from './wait-state.js';

/** A call waiting in this process for a press, its timeout or Stop. */
export interface Pending {
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

/** What the gates need: the settings, the calls waiting here and how they are kept and recorded. */
export interface GateDeps {
  settings: ApprovalSettings;
  /** Where grants are kept (`once-per-channel`); nothing is granted without it. */
  store?: ApprovalStore | undefined;
  waits?: ApprovalWaitStore | undefined;
  /** The calls waiting in this process, by approval id. */
  pending: Map<string, Pending>;
  keptWaits: KeptWaits;
  record(id: string, of: Decided, decision: WaitDecision): void;
  now: () => number;
  logger?: Logger | undefined;
}

/**
 * The gate of each run's tool calls: a call its policy holds waits for a person's press (kept in the store
 * when it can be, so a press on any replica or after a restart decides it), its timeout, or Stop.
 */
export function createGates(deps: GateDeps): (run: GatedRun) => ApprovalGate {
  const { settings, store, waits, pending, keptWaits, record, now, logger } = deps;
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

  return (run) => {
    const settingsKey = run.settingsKey ?? run.key;
    const runId = randomBytes(9).toString('base64url');
    return async (call, context) => {
      const policy = approvalOf(call.tool, settings);
      if (policy === 'never') return { run: true };
      if (policy === 'once-per-channel' && (await granted(settingsKey, call.tool.name))) return { run: true };
      if (context.signal.aborted) throw context.signal.reason;
      let id = randomBytes(9).toString('base64url');
      while (pending.has(id)) id = randomBytes(9).toString('base64url');
      const tool = call.tool.name;
      const requestedAt = now();
      const expiresAt = requestedAt + settings.APPROVAL_TIMEOUT_MS;
      const resume = context.pause();
      try {
        // Kept before anyone can press: a press must never find the call neither here nor in the store.
        const durable = await keptWaits.keep(run, {
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
          if (durable) keptWaits.drop(id);
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
              if (entry.durable) keptWaits.drop(id);
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
            const won = entry.durable ? await keptWaits.decide(id, expired) : 'failed';
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
          logger?.info({ id, key: run.key, tool }, 'shutting down: a tool call waiting for approval is kept');
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
  };
}
