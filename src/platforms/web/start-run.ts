import type { Assistant } from '../../core/assistant.js';
import type { Asker } from '../../core/governance/asker.js';
import type { Attachment } from '../../core/input/types.js';
import type { Logger } from '../../core/logger.js';
import type { WebChatStore } from '../../core/ports/web-chat-store.js';
import { askAndRender } from '../shared/run-renderer.js';
import { stepsShown } from '../shared/steps-shown.js';
import type { WorkTracker } from '../shared/work-tracker.js';
import { keepRun } from './chat-history.js';
import { broadcast, type ChatSession } from './chat-sessions.js';
import { newId } from './identity.js';
import { createWebRenderer } from './web-renderer.js';
import type { WebRun } from './web-run.js';

/** How a browser's asker is named to the model. */
export const WEB_AUTHOR = 'web user';

/** What a run needs. */
export interface RunDeps {
  assistant: Assistant;
  work: WorkTracker;
  logger: Logger;
  /** Where the ended run is kept with its steps, in its owner's conversation (history). */
  chats?: WebChatStore | undefined;
  /** The names of the files sent with the question, shown on it. */
  files?: string[] | undefined;
  /** The files sent with the question, as read (in the run's turn). */
  attachments?: Promise<Attachment[]> | undefined;
}

/**
 * Starts answering `question` in `session` in the background and returns the new run. The Stop button
 * aborts `session.stop` (the run ends as cancelled); shutdown aborts the tracker's signal (the run ends
 * with the restart notice). Once ended, the run is kept with its steps in the asker's conversation.
 */
export function startRun(session: ChatSession, question: string, asker: Asker, deps: RunDeps): WebRun {
  const run: WebRun = {
    id: newId(),
    question,
    ...(deps.files?.length ? { files: deps.files } : {}),
    phase: 'thinking',
    steps: [],
    answer: '',
  };
  const stop = new AbortController();
  session.run = run;
  session.stop = stop;
  broadcast(session, 'run', run);
  deps.work.run('a web chat run', async (shutdown) => {
    try {
      const showSteps = await stepsShown(deps.assistant, session.key);
      await askAndRender({
        assistant: deps.assistant,
        request: {
          key: session.key,
          author: WEB_AUTHOR,
          text: question,
          asker,
          ...(deps.attachments ? { attachments: deps.attachments } : {}),
        },
        renderer: createWebRenderer(
          session,
          run,
          () => keepRun(deps.chats, asker.principal, session.key, run, deps.logger),
          { showSteps },
        ),
        signal: AbortSignal.any([stop.signal, shutdown]),
        // Read once the run has ended, when it is known which of the two stopped it.
        get abortedBy() {
          return shutdown.aborted ? ('shutdown' as const) : ('asker' as const);
        },
        logger: deps.logger,
      });
    } finally {
      if (session.stop === stop) session.stop = undefined;
    }
  });
  return run;
}
