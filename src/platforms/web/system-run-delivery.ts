import type { SystemRunDelivery } from '../../core/ports/system-run-delivery.js';
import { systemRunRequest } from '../../core/runs/system-run-request.js';
import { askAndRender } from '../shared/run-renderer.js';
import { stepsShown } from '../shared/steps-shown.js';
import { systemRunHeading } from '../shared/system-run-heading.js';
import { keepRun } from './chat-history.js';
import { broadcast, type ChatSession, type ChatSessions } from './chat-sessions.js';
import { newId } from './identity.js';
import type { RunDeps } from './start-run.js';
import { createWebRenderer } from './web-renderer.js';
import type { WebRun } from './web-run.js';

/**
 * Runs nobody just asked for in the web chat (schedules, runs going on after a restart): asked in their
 * conversation and kept in its history with their steps, so the person finds the answer when they open it.
 * Pages watching it see the run live; if it is busy answering something else, the run goes on unwatched
 * and shows up in the history once kept. Notes to the person are kept there the same way.
 */
export function webSystemRunDelivery(sessions: ChatSessions, deps: RunDeps): SystemRunDelivery {
  const detached = (key: string): ChatSession => ({
    key,
    run: undefined,
    stop: undefined,
    clients: new Set(),
  });
  const show = (key: string) => {
    const live = sessions.get(key);
    return live.stop ? detached(key) : live;
  };
  return {
    async deliver(systemRun) {
      const { key, asker } = systemRun;
      const session = show(key);
      const run: WebRun = {
        id: newId(),
        question: systemRunHeading(systemRun, 'you', systemRun.question),
        phase: 'thinking',
        steps: [],
        answer: '',
      };
      const stop = new AbortController();
      session.run = run;
      session.stop = stop;
      broadcast(session, 'run', run);
      try {
        await deps.work.track(
          askAndRender({
            assistant: deps.assistant,
            request: systemRunRequest(systemRun),
            renderer: createWebRenderer(
              session,
              run,
              () => keepRun(deps.chats, asker.principal, key, run, deps.logger),
              { showSteps: await stepsShown(deps.assistant, key) },
            ),
            signal: AbortSignal.any([stop.signal, deps.work.signal]),
            // Read once the run has ended: Stop on the page, or shutdown.
            get abortedBy() {
              return deps.work.signal.aborted ? ('shutdown' as const) : ('asker' as const);
            },
            logger: deps.logger,
          }),
        );
      } finally {
        if (session.stop === stop) session.stop = undefined;
      }
    },
    // The web chat has no admins of its own: a browser is never one, a signed-in person only by ADMIN_USERS.
    lookUp: async () => ({ platformAdmin: false }),
    async tell(to, text) {
      const note: WebRun = {
        id: newId(),
        question: 'About a scheduled question',
        phase: 'final',
        steps: [],
        answer: text,
      };
      const session = show(to.key);
      if (!session.stop) {
        session.run = note;
        broadcast(session, 'run', note);
      }
      await keepRun(deps.chats, to.asker.principal, to.key, note, deps.logger);
    },
  };
}
