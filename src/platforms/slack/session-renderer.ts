import type { RunRenderer } from '../shared/run-renderer.js';
import type { RunView } from '../shared/run-view.js';
import type { RunSession, SessionStatus } from './session-status.js';

/** What a session shows once its run ended: still waiting when a call kept through a shutdown waits, else ready. */
function endStatus(view: RunView): SessionStatus {
  return view.keptApprovals?.length ? 'suspended' : 'active';
}

/**
 * The renderer, with the run's agent session following it: `processing` while it works, `suspended` while a
 * tool call waits for a person, and at the end `active` (ready for the next question), carried by the
 * stream's stop where it can be.
 */
export function withSessionStatus<R extends RunRenderer>(renderer: R, session: RunSession): R {
  return {
    ...renderer,
    render(view) {
      renderer.render(view);
      session.set(view.approvals?.length ? 'suspended' : 'processing');
    },
    async finish(view) {
      session.ending(endStatus(view));
      try {
        await renderer.finish(view);
      } finally {
        await session.settle();
      }
    },
  };
}
