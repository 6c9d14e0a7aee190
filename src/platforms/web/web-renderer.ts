import { renderIncrementally } from '../shared/render-incrementally.js';
import type { RunRenderer } from '../shared/run-renderer.js';
import { moreSteps } from '../shared/wording.js';
import { broadcast, type ChatSession } from './chat-sessions.js';
import { endRun, type WebRun, type WebStep, webApprovals, webStep } from './web-run.js';

/** Streamed answer text goes out at most this often, however fast the model writes. */
export const ANSWER_PUSH_MS = 50;

/**
 * Keeps `run` (the session's latest run) up to date and tells the watching pages: each step once, the
 * answer so far (coalesced), and the whole run when it ends, after `ended` (which keeps it) has settled,
 * so a page that sees the end finds the run kept.
 */
export function createWebRenderer(
  session: ChatSession,
  run: WebRun,
  ended?: () => Promise<void>,
  options: { showSteps?: boolean } = {},
): RunRenderer {
  let timer: NodeJS.Timeout | undefined;
  const pushAnswer = () => {
    timer = undefined;
    broadcast(session, 'answer', { id: run.id, phase: run.phase, text: run.answer });
  };
  let waiting = '';
  const inner = renderIncrementally(
    {
      step(step) {
        const shown = webStep(step);
        run.steps.push(shown);
        broadcast(session, 'step', { id: run.id, step: shown });
      },
      stepsCut(count) {
        const shown: WebStep = { kind: 'more', text: moreSteps(count), ok: true };
        run.steps.push(shown);
        broadcast(session, 'step', { id: run.id, step: shown });
      },
      streaming(answer) {
        run.answer = answer;
        run.phase = answer ? 'streaming' : 'thinking';
        timer ??= setTimeout(pushAnswer, ANSWER_PUSH_MS);
      },
      async end(view) {
        clearTimeout(timer);
        endRun(run, view);
        await ended?.();
        broadcast(session, 'run', run);
      },
    },
    options,
  );
  return {
    render(view) {
      inner.render(view);
      const approvals = webApprovals(view);
      const ids = approvals.map((a) => a.id).join(' ');
      if (ids === waiting) return;
      waiting = ids;
      if (approvals.length > 0) run.approvals = approvals;
      else delete run.approvals;
      broadcast(session, 'approvals', { id: run.id, approvals });
    },
    finish: (view) => inner.finish(view),
  };
}
