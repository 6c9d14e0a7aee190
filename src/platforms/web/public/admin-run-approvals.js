// The run page's approvals: each tool call that waited for a person, who decided it, when, and how long it
// waited; and how the run began when no one asked it just then (a schedule, or a restart that resumed it).

import { $, el, ms, table } from './admin-dom.js';

const DECISIONS = {
  approved: 'approved',
  denied: 'denied',
  expired: 'not approved in time',
  stopped: 'stopped with the run',
};

/** The calls a person did not let run (denied, or not approved in time), by call id. */
export function notRun(steps) {
  const calls = new Map();
  for (const s of steps)
    if (s.kind === 'approval' && s.outcome !== 'approved') calls.set(s.callId, s.outcome);
  return calls;
}

/** How an approval step reads in the steps list. */
export function approvalDetail(step) {
  const by = step.by ? ` by ${step.by}` : '';
  return ` · ${step.tool} · ${DECISIONS[step.outcome] ?? step.outcome}${by} after ${ms(step.waitedMs)}`;
}

/** Fills #run-approvals (hidden when no call waited) from the log's steps; `at` is when the run began (ms). */
export function showApprovals(steps, at) {
  const decided = steps.filter((s) => s.kind === 'approval');
  $('run-approvals-part').hidden = decided.length === 0;
  table(
    $('run-approvals'),
    ['Tool', 'Decision', 'By', 'Decided at', 'Waited', 'Reason'],
    decided.map((s) => [
      s.tool,
      DECISIONS[s.outcome] ?? s.outcome,
      s.by ?? '–',
      new Date(at + s.at).toLocaleString(),
      ms(s.waitedMs),
      s.reason ?? '',
    ]),
  );
}

/** How the run began, when a schedule asked it or a restart resumed it: meta rows for the run page. */
export function beganRows(steps) {
  const marks = { scheduled: 'Scheduled', resumed: 'Resumed after a restart' };
  return steps
    .filter((s) => s.kind === 'notice' && marks[s.code])
    .map((s) => ['Began', el('span', `${marks[s.code]}: ${s.text}`, { 'data-began': s.code })]);
}
