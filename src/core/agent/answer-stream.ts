import type { AgentEventHandler } from './events.js';

/** Turns streamed model text into answer_delta events once `startOf` says where the answer begins. */
export interface AnswerStream {
  push(delta: string): void;
  /** Emits whatever of the answer was not streamed yet (`text` is the whole answer when nothing streamed). */
  finish(text: string): void;
  /** The streamed text turned out not to be an answer; tells renderers to drop it. */
  retract(): void;
}

/** `startOf(textSoFar)` returns where the answer starts, or -1 while it cannot tell yet. */
export function createAnswerStream(emit: AgentEventHandler, startOf: (text: string) => number): AnswerStream {
  let text = '';
  let start = -1;
  let emitted = 0;
  return {
    push(delta) {
      text += delta;
      if (start < 0) {
        start = startOf(text);
        if (start < 0) return;
        emitted = start;
      }
      if (text.length > emitted) {
        emit({ type: 'answer_delta', text: text.slice(emitted) });
        emitted = text.length;
      }
    },
    finish(answer) {
      if (start < 0) {
        if (answer) emit({ type: 'answer_delta', text: answer });
        start = 0;
      }
    },
    retract() {
      if (start >= 0 && emitted > start) emit({ type: 'answer_reset' });
      text = '';
      start = -1;
      emitted = 0;
    },
  };
}
