import { randomBytes } from 'node:crypto';
import { principalPlatform, principalUser } from '../governance/principal.js';
import type { ApprovalWait, WaitDecision } from '../ports/approval-wait-store.js';
import { approvalRecorder, waitDecided } from './approval-record.js';
import { createGates, type Pending } from './approval-waits.js';
import { APPROVAL_EXPIRED, approvalForbidden, approvalNote } from './approval-wording.js';
import { type Approvals, type ApprovalsDeps, type Approver, MAX_REASON_CHARS } from './approvals.js';
import { createKeptWaits } from './kept-waits.js';
import { createOrphanSweeper, WAIT_BEAT_MS, WAIT_STALE_MS } from './orphan-sweeper.js';
import { parseWaitState, type WaitState } from './wait-state.js';

// Still importable from here, where the Slack, Discord and web adapters import them.
export type { Approver, DecidedElsewhere } from './approvals.js';
export { MAX_REASON_CHARS } from './approvals.js';

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
  const record = approvalRecorder(store, logger);
  const keptWaits = createKeptWaits({ waits, settings, owner, now, logger });

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
    const wait = entry ? undefined : await keptWaits.undecided(id);
    if (entry?.settled || (!entry && !wait)) return { status: 'expired', message: APPROVAL_EXPIRED };
    if (!(await mayDecide(entry ? entry.run.asker?.principal : wait?.asker, who))) {
      return { status: 'forbidden', message: approvalForbidden(settings.APPROVERS) };
    }
    if (entry) return { entry };
    return { wait: wait as ApprovalWait, state: parseWaitState(wait as ApprovalWait) };
  };

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
        .map((wait) => keptWaits.shown(wait, parseWaitState(wait)));
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
    gateFor: createGates({ settings, store, waits, pending, keptWaits, record, now, logger }),
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
        if (entry.settled || (entry.durable && (await keptWaits.decide(id, decision)) === 'lost'))
          return { status: 'expired', message: APPROVAL_EXPIRED };
        // Settled meanwhile, it was by the timeout finding this decision in the store: it stands.
        entry.settle(decision, false);
        return { status };
      }
      // Kept by another process: decided in the store, where its process (or, if it is gone, a sweep) takes it.
      const won = await keptWaits.decide(id, decision);
      if (typeof won === 'string') return { status: 'expired', message: APPROVAL_EXPIRED };
      if (found.state) record(id, waitDecided(won, found.state), decision);
      void sweep();
      return {
        status,
        elsewhere: {
          note: approvalNote(won.tool, status, who.name, reason),
          call: keptWaits.shown(won, found.state),
        },
      };
    },
  };
}
