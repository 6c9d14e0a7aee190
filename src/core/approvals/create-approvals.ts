import { createHash, randomBytes } from 'node:crypto';
import type { Asker } from '../governance/asker.js';
import { type Principal, principalPlatform, principalUser } from '../governance/principal.js';
import type { Logger } from '../logger.js';
import type { ApprovalOutcome, ApprovalRecord, ApprovalStore } from '../ports/approval-store.js';
import type { ApprovalGate } from './approval-gate.js';
import { type ApprovalSettings, approvalOf } from './approval-policy.js';
import {
  APPROVAL_EXPIRED,
  approvalForbidden,
  deniedObservation,
  expiredObservation,
} from './approval-wording.js';

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
  | { status: 'approved' | 'denied' }
  | { status: 'forbidden' | 'expired'; message: string };

/** The call a pending approval waits on, for one who may decide it; else why they may not see it. */
export type ApprovalCallView =
  | { status: 'allowed'; tool: string; input: unknown }
  | { status: 'forbidden' | 'expired'; message: string };

/** The run a gate guards: where it answers and who asked. */
export interface GatedRun {
  platform: string;
  key: string;
  /** Whose grants apply (a thread's channel); `key` when unset. */
  settingsKey?: string | undefined;
  asker?: Pick<Asker, 'principal'> | undefined;
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
  /** The latest decisions of the last 30 days (admins' `/usage`); none when decisions are not kept. */
  recent(limit: number): Promise<ApprovalRecord[]>;
}

/** What the approvals need. */
export interface ApprovalsDeps {
  settings: ApprovalSettings;
  /** Where decisions and grants are kept; without it decisions are only logged and nothing is granted. */
  store?: ApprovalStore | undefined;
  isAdmin: (who: Asker) => Promise<boolean>;
  logger?: Logger | undefined;
  now?: (() => number) | undefined;
}

interface Pending {
  run: GatedRun;
  tool: string;
  input: unknown;
  digest: string;
  requestedAt: number;
  settle(outcome: ApprovalOutcome, by?: Approver, reason?: string): void;
  settled: boolean;
}

/** Creates the approvals; pending calls live in this process (a restart ends them, see the README). */
export function createApprovals(deps: ApprovalsDeps): Approvals {
  const { settings, store, logger } = deps;
  const now = deps.now ?? Date.now;
  const pending = new Map<string, Pending>();

  const record = (entry: Pending, id: string, outcome: ApprovalOutcome, by?: Approver, reason?: string) => {
    const decision: ApprovalRecord = {
      id,
      at: now(),
      requestedAt: entry.requestedAt,
      platform: entry.run.platform,
      key: entry.run.key,
      tool: entry.tool,
      argsDigest: entry.digest,
      asker: entry.run.asker?.principal,
      decidedBy: by?.principal,
      outcome,
      reason,
    };
    logger?.info(
      { id, key: decision.key, tool: decision.tool, outcome, by: decision.decidedBy },
      'tool call approval decided',
    );
    store
      ?.recordApproval(decision)
      .catch((err: unknown) => logger?.error({ id, err }, 'could not record an approval'));
  };

  const granted = async (settingsKey: string, tool: string): Promise<boolean> => {
    if (!store) return false;
    try {
      return (await store.approvalGrants(settingsKey)).some((g) => g.tool === tool);
    } catch (err) {
      logger?.warn({ settingsKey, err }, 'could not read approval grants; asking');
      return false;
    }
  };

  const mayDecide = async (entry: Pending, who: Approver): Promise<boolean> => {
    const asker = entry.run.asker?.principal;
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

  /** The pending entry `who` may decide, or the private line saying why not. */
  const decidable = async (
    id: string,
    who: Approver,
  ): Promise<{ entry: Pending } | { status: 'forbidden' | 'expired'; message: string }> => {
    const entry = pending.get(id);
    if (!entry || entry.settled) return { status: 'expired', message: APPROVAL_EXPIRED };
    if (!(await mayDecide(entry, who))) {
      return { status: 'forbidden', message: approvalForbidden(settings.APPROVERS) };
    }
    return { entry };
  };

  return {
    settings,
    pending: () => pending.size,
    async recent(limit) {
      if (!store) return [];
      const until = now() + 1;
      return store.listApprovals({ since: until - 30 * 86_400_000, until, limit });
    },
    gateFor(run) {
      const settingsKey = run.settingsKey ?? run.key;
      return async (call, context) => {
        const policy = approvalOf(call.tool, settings);
        if (policy === 'never') return { run: true };
        if (policy === 'once-per-channel' && (await granted(settingsKey, call.tool.name)))
          return { run: true };
        if (context.signal.aborted) throw context.signal.reason;
        let id = randomBytes(9).toString('base64url');
        while (pending.has(id)) id = randomBytes(9).toString('base64url');
        const tool = call.tool.name;
        const resume = context.pause();
        try {
          const decided = await new Promise<{ outcome: ApprovalOutcome; by?: Approver; reason?: string }>(
            (resolve) => {
              const entry: Pending = {
                run,
                tool,
                input: call.input,
                digest: argumentsDigest(call.input),
                requestedAt: now(),
                settled: false,
                settle(outcome, by, reason) {
                  if (entry.settled) return;
                  entry.settled = true;
                  pending.delete(id);
                  clearTimeout(timer);
                  context.signal.removeEventListener('abort', onAbort);
                  record(entry, id, outcome, by, reason);
                  resolve({ outcome, ...(by ? { by } : {}), ...(reason ? { reason } : {}) });
                },
              };
              const onAbort = () => entry.settle('stopped');
              const timer = setTimeout(() => entry.settle('expired'), settings.APPROVAL_TIMEOUT_MS);
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
                expiresAt: entry.requestedAt + settings.APPROVAL_TIMEOUT_MS,
              });
            },
          );
          context.emit({
            type: 'approval_decided',
            id,
            callId: call.callId,
            tool,
            outcome: decided.outcome,
            ...(decided.by ? { by: decided.by.name } : {}),
            ...(decided.reason ? { reason: decided.reason } : {}),
          });
          switch (decided.outcome) {
            case 'stopped':
              throw context.signal.reason;
            case 'expired':
              return { run: false, observation: expiredObservation(tool, settings.APPROVAL_TIMEOUT_MS) };
            case 'denied':
              return { run: false, observation: deniedObservation(tool, decided.reason) };
            case 'approved':
              if (policy === 'once-per-channel' && store && decided.by) {
                await store
                  .grantApproval({ settingsKey, tool, grantedBy: decided.by.principal, at: now() })
                  .catch((err: unknown) =>
                    logger?.error({ settingsKey, tool, err }, 'could not grant a tool'),
                  );
              }
              return { run: true };
          }
        } finally {
          resume();
        }
      };
    },
    async check(id, who) {
      const found = await decidable(id, who);
      return 'entry' in found ? { status: 'allowed' } : found;
    },
    async call(id, who) {
      const found = await decidable(id, who);
      return 'entry' in found
        ? { status: 'allowed', tool: found.entry.tool, input: found.entry.input }
        : found;
    },
    async decide(id, who, verdict) {
      const entry = pending.get(id);
      if (!entry || entry.settled) return { status: 'expired', message: APPROVAL_EXPIRED };
      if (!(await mayDecide(entry, who))) {
        return { status: 'forbidden', message: approvalForbidden(settings.APPROVERS) };
      }
      // Checked again: another press, the timeout or Stop may have settled it during the admin lookup.
      if (entry.settled) return { status: 'expired', message: APPROVAL_EXPIRED };
      const reason = verdict.approve
        ? undefined
        : verdict.reason?.trim().slice(0, MAX_REASON_CHARS) || undefined;
      entry.settle(verdict.approve ? 'approved' : 'denied', who, reason);
      return { status: verdict.approve ? 'approved' : 'denied' };
    },
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
