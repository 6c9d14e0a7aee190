/**
 * What a button asks for: stop the run, rate the finished answer, or approve, deny or see the whole
 * arguments of a pending tool call (whose id then stands where the run's does).
 */
export type RunAction = 'stop' | 'feedback_up' | 'feedback_down' | 'approve' | 'deny' | 'args';

const PREFIX = 'tt';
const ACTIONS: readonly RunAction[] = ['stop', 'feedback_up', 'feedback_down', 'approve', 'deny', 'args'];

/** A button's id (Discord `custom_id`, Slack `action_id` + value): the action and the run it acts on, ≤ 100 chars. */
export function runActionId(action: RunAction, runId: string): string {
  return `${PREFIX}:${action}:${runId}`.slice(0, 100);
}

/** The action and run a button id names, or null for an id that is not one of ours. */
export function parseRunActionId(id: string): { action: RunAction; runId: string } | null {
  const [prefix, action, ...rest] = id.split(':');
  if (prefix !== PREFIX || !ACTIONS.includes(action as RunAction) || rest.length === 0) return null;
  const runId = rest.join(':');
  return runId === '' ? null : { action: action as RunAction, runId };
}
