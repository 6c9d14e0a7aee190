import { AsyncLocalStorage } from 'node:async_hooks';
import type { AnsweredBy, ChatModel } from './types.js';

/** Told who answered each model request made within its scope. */
export type ModelAnswerListener = (answer: AnsweredBy) => void;

// A run's requests are made deep in the agent's protocols; the run is told who answered them without every
// layer in between passing a callback along.
const listeners = new AsyncLocalStorage<ModelAnswerListener>();

/**
 * Runs `fn` with `listener` told who answered each model request it makes (see {@link reportingAnswers});
 * listeners of enclosing scopes are told too.
 */
export function listenForAnswers<T>(listener: ModelAnswerListener, fn: () => T): T {
  const outer = listeners.getStore();
  return listeners.run(
    outer
      ? (answer) => {
          outer(answer);
          listener(answer);
        }
      : listener,
    fn,
  );
}

/** `model`, telling the listener of the current scope (if any) who answered each request, when it says. */
export function reportingAnswers(model: ChatModel): ChatModel {
  return {
    async complete(request) {
      const completion = await model.complete(request);
      if (completion.answeredBy) listeners.getStore()?.(completion.answeredBy);
      return completion;
    },
  };
}

/** What the asker is told under an answer a fallback gave. */
export function fallbackNotice(answer: AnsweredBy): string {
  return `The primary model (${answer.insteadOf ?? 'unknown'}) was unavailable; answered by ${answer.endpoint}.`;
}
