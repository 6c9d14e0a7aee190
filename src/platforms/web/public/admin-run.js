// The run page: where and by whom a run was asked, what it spent, its steps, approvals and answer.

import { $, el, getOk, ms, number, person } from './admin-dom.js';
import { approvalDetail, beganRows, notRun, showApprovals } from './admin-run-approvals.js';

const LABELS = {
  thought: 'Thought',
  action: 'Action',
  observation: 'Observation',
  approval: 'Approval',
  model: 'Model call',
  answer: 'Answer',
  notice: 'Notice',
  error: 'Error',
};

/** Shows run `id` and resolves to it; `runLogDays` says why a run may have no steps. */
export async function showRun(id, runLogDays) {
  const { run, names } = await getOk(`/admin/api/run?id=${encodeURIComponent(id ?? '')}`);
  $('run-title').textContent = `Run ${run.id}`;
  const steps = run.log?.steps ?? [];
  const meta = [
    ['When', new Date(run.at).toLocaleString()],
    ...beganRows(steps),
    ['Where', `${run.platform} · ${run.key}`],
    ['Who', person(run.userId, names)],
    ['Model', run.model],
    ['Outcome', run.outcome],
    [
      'Tokens',
      `${number(run.promptTokens)} prompt (${number(run.cachedTokens)} cached) + ${number(run.completionTokens)} completion`,
    ],
    ['Model calls', number(run.modelCalls)],
    ['Duration', ms(run.durationMs)],
    ['Votes up / down', `${run.up} / ${run.down}`],
  ];
  $('run-meta').replaceChildren(...meta.flatMap(([k, v]) => [el('dt', k), el('dd', v)]));
  $('run-note').textContent = run.log
    ? ''
    : runLogDays > 0
      ? `This run's steps are not kept (older than ${runLogDays} days, or it never ran).`
      : 'Run logs are off (RUN_LOG_RETENTION_DAYS=0).';
  $('run-question').textContent = run.log?.question ?? '';
  $('run-answer').textContent = run.log?.answer ?? '';
  const denied = notRun(steps);
  $('run-steps').replaceChildren(...steps.map((step) => stepItem(step, denied)));
  showApprovals(steps, run.at);
  $('run-title').focus?.();
  return run;
}

function stepItem(step, denied) {
  const item = el('li', undefined, { class: `step ${step.kind}`, 'data-kind': step.kind });
  const head = el('p', undefined, { class: 'step-head' });
  head.append(el('strong', LABELS[step.kind] ?? step.kind), el('span', ` +${ms(step.at)}`, { class: 'at' }));
  const detail = (text, attrs = {}) => head.append(el('span', text, { class: 'detail', ...attrs }));
  if (step.kind === 'model') {
    detail(
      ` · ${ms(step.ms)} · ${number(step.promptTokens)} prompt (${number(step.cachedTokens)} cached) + ${number(step.completionTokens)} completion tokens`,
      { 'data-prompt': String(step.promptTokens), 'data-completion': String(step.completionTokens) },
    );
  }
  if (step.kind === 'action') detail(` · ${step.tool}`);
  if (step.kind === 'approval') detail(approvalDetail(step), { 'data-outcome': step.outcome });
  if (step.kind === 'observation') {
    // A call no one let run did not fail: it never ran.
    const state = denied.has(step.callId) ? ' · not run' : step.ok ? '' : ' · failed';
    detail(
      ` · ${step.tool} · ${ms(step.ms)}${state}`,
      state === ' · failed' ? { class: 'detail failed' } : {},
    );
  }
  if (step.kind === 'notice' || step.kind === 'error') detail(` · ${step.code}`);
  // The answer is shown once, under Answer.
  if (step.kind === 'answer') detail(' · shown below');
  item.append(head);
  const text = step.kind === 'action' ? step.input : step.kind === 'answer' ? undefined : step.text;
  const reason = step.kind === 'approval' ? step.reason : undefined;
  if (text || reason) item.append(el('pre', text || reason, { class: 'text' }));
  return item;
}
