import { createHash } from 'node:crypto';
import type { Logger } from '../logger.js';
import type { ApprovalRecord, ApprovalStore } from '../ports/approval-store.js';
import type { ApprovalWait, WaitDecision } from '../ports/approval-wait-store.js';
import type { WaitState } from './wait-state.js';

/** What a decision record is made from. */
export type Decided = Pick<
  ApprovalRecord,
  'requestedAt' | 'platform' | 'key' | 'tool' | 'argsDigest' | 'asker'
>;

/** Records each decision: logged, and kept when there is a store (not awaited; a failure is logged). */
export function approvalRecorder(
  store: ApprovalStore | undefined,
  logger: Logger | undefined,
): (id: string, of: Decided, decision: WaitDecision) => void {
  return (id, of, decision) => {
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
}

/** The record fields of a stored wait. */
export function waitDecided(wait: ApprovalWait, state: WaitState): Decided {
  return {
    requestedAt: wait.requestedAt,
    platform: wait.platform,
    key: wait.key,
    tool: wait.tool,
    argsDigest: argumentsDigest(state.input),
    asker: wait.asker,
  };
}

/** SHA-256 (hex) of a call's arguments as JSON: identifies the call in the record without keeping it. */
export function argumentsDigest(input: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(input) ?? 'null')
    .digest('hex');
}
