// The conversation log: each question with its reasoning steps and answer, commands with their replies, and
// notes. Model text reaches it only as escaped text or through renderMarkdown.
import { showApprovals } from './chat-approvals.js';
import { copyButton, decorateCode } from './chat-copy.js';
import { element, follow, log, sendButton, stopButton } from './chat-dom.js';
import { renderMarkdown } from './markdown.js';

const LABELS = { thought: 'Thought', action: 'Action', observation: 'Observation' };
/** The phases a run ends in. */
export const ENDED = new Set(['final', 'failed', 'cancelled']);

/** The markdown each answer element shows (what its Copy button copies). */
const answerTexts = new WeakMap();

/** The run being answered in this chat, if any. */
export let liveRun;

/** Marks `run` as the one being answered (Stop shown, Send off), or none when it ended or is absent. */
export function setLive(run) {
  liveRun = run && !ENDED.has(run.phase) ? run.id : undefined;
  stopButton.hidden = liveRun === undefined;
  sendButton.disabled = liveRun !== undefined;
}

function questionBlock(text, files = []) {
  const block = element('div', 'question');
  block.append(element('span', 'who', 'You'), element('p', 'text', text));
  if (files.length > 0) {
    const list = element('p', 'files');
    list.append(element('span', 'label', 'Attached:'), ...files.map((name) => element('span', 'file', name)));
    block.append(list);
  }
  return block;
}

function answerBlock() {
  const block = element('div', 'answer');
  const copy = copyButton('Copy', 'Copy the answer', () => answerTexts.get(block) ?? '');
  copy.classList.add('copy-answer');
  copy.hidden = true;
  block.append(
    element('span', 'who', 'thinkthread'),
    copy,
    element('div', 'body markdown'),
    element('p', 'note'),
  );
  return block;
}

/** Shows an answer as it stands: its markdown, a problem, or a placeholder while it is being written. */
function showAnswer(item, phase, text, note = '', problem = '') {
  const answer = item.querySelector('.answer');
  const body = answer.querySelector('.body');
  answer.dataset.phase = phase;
  answerTexts.set(answer, text);
  answer.querySelector('.copy-answer').hidden = !(phase === 'final' && text && !problem);
  if (problem) {
    body.replaceChildren(element('p', 'problem', problem));
  } else if (text) {
    // renderMarkdown escapes every character of the model's text before adding its own few tags; the
    // highlighter then only rearranges the code's text into spans (textContent, never HTML).
    body.innerHTML = renderMarkdown(text);
    if (phase === 'final') decorateCode(body);
  } else {
    const placeholder = item.dataset.waiting || 'Thinking…';
    body.replaceChildren(element('p', 'thinking', phase === 'final' ? '' : placeholder));
  }
  answer.querySelector('.note').textContent = note;
}

function stepItem(step) {
  const item = element('li', `step ${step.kind}${step.ok ? '' : ' failed'}`);
  // The line standing for the steps past the display limit, and notes, have no label of their own.
  if (step.kind === 'more' || step.kind === 'note') {
    item.append(element('span', 'text', step.text));
    return item;
  }
  item.append(
    element('span', 'label', `${LABELS[step.kind] ?? step.kind}:`),
    ' ',
    element('span', 'text', step.text),
  );
  return item;
}

function countSteps(details) {
  const n = details.querySelector('ol').children.length;
  details.querySelector('summary').textContent = `Reasoning: ${n} step${n === 1 ? '' : 's'}`;
  details.hidden = n === 0;
}

/** The list item of run `id`, created (empty) at the end of the log when new. */
function runItem(run) {
  let item = log.querySelector(`li[data-run="${CSS.escape(run.id)}"]`);
  if (item) return item;
  item = element('li', 'exchange');
  item.dataset.run = run.id;
  const details = element('details', 'steps');
  details.append(element('summary'), element('ol'));
  item.append(questionBlock(run.question, run.files), answerBlock(), details);
  log.append(item);
  return item;
}

/** Shows a whole run: its question, steps and answer; steps open while it is live, folded once it ended. */
export function showRun(run) {
  follow(() => {
    const item = runItem(run);
    const details = item.querySelector('details');
    const wasLive = item.getAttribute('aria-busy') === 'true';
    details.querySelector('ol').replaceChildren(...run.steps.map(stepItem));
    countSteps(details);
    const ended = ENDED.has(run.phase);
    if (!ended) details.open = true;
    else if (wasLive || !item.dataset.shown) details.open = false;
    item.dataset.shown = 'yes';
    item.setAttribute('aria-busy', String(!ended));
    // An ended run carries approvals only when they were kept through a restart: they still decide.
    showApprovals(item, run.approvals ?? []);
    showAnswer(item, run.phase, run.answer, run.note, run.problem);
  });
  if (!ENDED.has(run.phase) || liveRun === run.id) setLive(run);
}

function showTurn(turn) {
  const item = element('li', 'exchange');
  item.append(questionBlock(turn.question), answerBlock());
  showAnswer(item, 'final', turn.answer);
  log.append(item);
}

/** A command as sent (`/memory`, …) with its reply, so the log shows what was asked. */
export function showCommand(text, reply) {
  follow(() => {
    const item = element('li', 'note command');
    item.append(questionBlock(text), element('pre', '', reply));
    log.append(item);
  });
}

/** A note in the log: `kind` is note, summary or error. */
export function showNote(text, kind = 'note') {
  follow(() => {
    const item = element('li', kind);
    item.append(element('pre', '', text));
    log.append(item);
  });
}

/** Shows a whole conversation as the server sent it on connecting, in place of what the log showed. */
export function showConversation(snapshot) {
  follow(() => {
    log.replaceChildren();
    if (snapshot.summary) showNote(`Earlier in this chat, in short:\n${snapshot.summary}`, 'summary');
    for (const turn of snapshot.turns) showTurn(turn);
    if (snapshot.problem) showNote(snapshot.problem, 'error');
  });
  setLive(undefined);
  for (const run of snapshot.runs ?? []) showRun(run);
  if (snapshot.run) showRun(snapshot.run);
}

/** The list item of run `id` already in the log, if any. */
const itemOf = (id) => log.querySelector(`li[data-run="${CSS.escape(id)}"]`);

/** Adds a step the server streamed to its run's reasoning. */
export function showStep(id, step) {
  const item = itemOf(id);
  if (!item) return;
  follow(() => {
    const details = item.querySelector('details');
    details.querySelector('ol').append(stepItem(step));
    countSteps(details);
  });
}

/** Shows the calls of run `id` waiting for Approve or Deny. */
export function showRunApprovals(id, approvals) {
  const item = itemOf(id);
  if (item) follow(() => showApprovals(item, approvals));
}

/** Shows the answer of run `id` so far (or in full once `phase` is final). */
export function showRunAnswer(id, phase, text) {
  const item = itemOf(id);
  if (item) follow(() => showAnswer(item, phase, text));
}
