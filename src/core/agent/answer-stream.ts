import type { AgentEventHandler } from './events.js';

/** Turns streamed model text into answer_delta events once `startOf` says where the answer begins. */
export interface AnswerStream {
  push(delta: string): void;
  /** Emits whatever of the answer was not streamed yet (`text` is the whole answer when nothing streamed). */
  finish(text: string): void;
  /** The streamed text turned out not to be an answer; tells renderers to drop it. */
  retract(): void;
}

/** Below this length the start is looked for on every delta; above it, each time the text grew by a quarter. */
const EAGER_CHARS = 4096;

/**
 * `startOf(textSoFar)` returns where the answer starts, or -1 while it cannot tell yet. It reads the whole
 * text, so on long replies it is asked less and less often: the reading stays linear in the reply's length.
 */
export function createAnswerStream(emit: AgentEventHandler, startOf: (text: string) => number): AnswerStream {
  // Kept only until the answer starts: slicing a growing string on every delta would copy it each time.
  let text = '';
  let started = false;
  let streamed = false;
  let lookAgainAt = 0;
  const send = (delta: string) => {
    if (!delta) return;
    emit({ type: 'answer_delta', text: delta });
    streamed = true;
  };
  return {
    push(delta) {
      if (started) return send(delta);
      text += delta;
      if (text.length < lookAgainAt) return;
      lookAgainAt = text.length < EAGER_CHARS ? 0 : Math.ceil(text.length * 1.25);
      const start = startOf(text);
      if (start < 0) return;
      started = true;
      send(text.slice(start));
      text = '';
    },
    finish(answer) {
      if (started) return;
      send(answer);
      started = true;
      text = '';
    },
    retract() {
      if (streamed) emit({ type: 'answer_reset' });
      text = '';
      started = false;
      streamed = false;
      lookAgainAt = 0;
    },
  };
}
