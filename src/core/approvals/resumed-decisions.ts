import type { AgentEventHandler } from '../agent/events.js';
import type { ResumedRun } from './wait-state.js';

/**
 * The events of a resumed run, with each decision made while its process was gone shown right after the
 * call it decided.
 */
export function showingDecisions(resumed: ResumedRun, onEvent: AgentEventHandler): AgentEventHandler {
  const byCall = new Map(resumed.outcomes.map((o) => [o.callId, o]));
  return (event) => {
    onEvent(event);
    const outcome = event.type === 'action' ? byCall.get(event.callId) : undefined;
    if (!outcome) return;
    byCall.delete(outcome.callId);
    const { decision } = outcome;
    onEvent({
      type: 'approval_decided',
      id: outcome.id,
      callId: outcome.callId,
      tool: outcome.tool,
      outcome: decision.outcome,
      ...(decision.byName ? { by: decision.byName } : {}),
      ...(decision.reason ? { reason: decision.reason } : {}),
      waitedMs: Math.max(0, decision.at - outcome.requestedAt),
    });
  };
}
