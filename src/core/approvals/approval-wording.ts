import type { Approvers } from './approval-policy.js';

/** The private reply to a press on a request that ended (decided, timed out, or its run is over). */
export const APPROVAL_EXPIRED = 'This request has expired.';

/** The private reply to a press by someone APPROVERS does not name. */
export function approvalForbidden(approvers: Approvers): string {
  switch (approvers) {
    case 'asker':
      return 'Only the asker can approve this.';
    case 'admins':
      return 'Only an admin can approve this.';
    case 'asker+admins':
      return 'Only the asker or an admin can approve this.';
  }
}

/** What the model reads when a person denied a call. */
export function deniedObservation(tool: string, reason: string | undefined): string {
  const why = reason?.trim() ? ` Their reason: ${sentence(reason)}` : ' They gave no reason.';
  return `Not run: the person asked to approve this call of ${tool} denied it.${why} Do not call it again unless they ask for it.`;
}

/** What the model reads when no one decided in time. */
export function expiredObservation(tool: string, timeoutMs: number): string {
  return `Not run: no one approved this call of ${tool} within ${describeMs(timeoutMs)}, so it was denied. Tell the asker it needs approval.`;
}

/** The note in the steps once a pending tool call is decided, and on its message once it has no buttons. */
export function approvalNote(
  tool: string,
  outcome: 'approved' | 'denied' | 'expired',
  by: string | undefined,
  reason: string | undefined,
): string {
  switch (outcome) {
    case 'approved':
      return `${tool} approved by ${by ?? 'someone'}.`;
    case 'denied':
      return `${tool} denied by ${by ?? 'someone'}${reason?.trim() ? `: ${sentence(reason)}` : '.'}`;
    case 'expired':
      return `${tool} was not approved in time, so it did not run.`;
  }
}

/** `text` trimmed, ending in a full stop unless it ends a sentence already (`.`, `!`, `?`, `…`, maybe quoted). */
function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?…]["'’”)\]]*$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

function describeMs(ms: number): string {
  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000} minute${ms === 60_000 ? '' : 's'}`;
  if (ms >= 1000) return `${Math.round(ms / 1000)} s`;
  return `${ms} ms`;
}
