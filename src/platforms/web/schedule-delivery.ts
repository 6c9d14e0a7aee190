import type { ScheduleDeliverer } from '../../core/schedules/create-scheduler.js';
import { askAndRender } from '../shared/run-renderer.js';
import { scheduleHeading } from '../shared/schedule-heading.js';
import { stepsShown } from '../shared/steps-shown.js';
import { keepRun } from './chat-history.js';
import { broadcast, type ChatSession, type ChatSessions } from './chat-sessions.js';
import { newId } from './identity.js';
import type { RunDeps } from './start-run.js';
import { createWebRenderer } from './web-renderer.js';
import type { WebRun } from './web-run.js';

/**
 * Scheduled runs in the web chat: asked in the conversation they were set up in and kept in its history
 * with their steps, so the person finds the answer when they open it. Pages watching it see the run live;
 * if it is busy answering something else, the run goes on unwatched and shows up in the history once kept.
 * Notes to the creator are kept there the same way.
 */
export function webScheduleDelivery(sessions: ChatSessions, deps: RunDeps): ScheduleDeliverer {
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
    async deliverScheduled(scheduled) {
      const { schedule, asker } = scheduled;
      const session = show(schedule.key);
      const run: WebRun = {
        id: newId(),
        question: scheduleHeading(scheduled, 'you', schedule.question),
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
            request: {
              key: schedule.key,
              settingsKey: schedule.settingsKey,
              author: schedule.creator.name,
              text: schedule.question,
              asker,
              resume: scheduled.resume,
            },
            renderer: createWebRenderer(
              session,
              run,
              () => keepRun(deps.chats, asker.principal, schedule.key, run, deps.logger),
              { showSteps: await stepsShown(deps.assistant, schedule.key) },
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
    lookUpCreator: async () => ({ platformAdmin: false }),
    async tellScheduleCreator(schedule, text) {
      const note: WebRun = {
        id: newId(),
        question: 'About a scheduled question',
        phase: 'final',
        steps: [],
        answer: text,
      };
      const session = show(schedule.key);
      if (!session.stop) {
        session.run = note;
        broadcast(session, 'run', note);
      }
      await keepRun(deps.chats, schedule.creator.principal, schedule.key, note, deps.logger);
    },
  };
}
