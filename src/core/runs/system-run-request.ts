import type { AskRequest } from '../assistant.js';
import type { SystemRun } from '../ports/system-run-delivery.js';

/** What the assistant is asked for a run the system started: its question, where it runs, as whom. */
export function systemRunRequest(run: SystemRun): AskRequest {
  return {
    key: run.key,
    settingsKey: run.settingsKey,
    author: run.author,
    text: run.question,
    asker: run.asker,
    resume: run.why.kind === 'resume' ? run.why.resumed : undefined,
  };
}
