import type { AgentEventHandler, AnswerCut } from './events.js';

/** `text` cut to at most `max` characters (never inside a surrogate pair), and why it ends where it does. */
export function capAnswer(
  text: string,
  max: number,
  modelCut: boolean,
): { text: string; truncated: AnswerCut | undefined } {
  if (text.length <= max) return { text, truncated: modelCut ? 'length' : undefined };
  const code = text.charCodeAt(max - 1);
  const end = code >= 0xd800 && code <= 0xdbff ? max - 1 : max;
  return { text: text.slice(0, end), truncated: 'max_chars' };
}

/** Passes events on, but no more than `max` characters of a streamed answer: the rest never reaches a channel. */
export function limitAnswerDeltas(emit: AgentEventHandler, max: number): AgentEventHandler {
  let streamed = 0;
  return (event) => {
    if (event.type === 'answer_reset') streamed = 0;
    if (event.type !== 'answer_delta') return emit(event);
    const room = max - streamed;
    if (room <= 0) return;
    const text = event.text.length > room ? capAnswer(event.text, room, false).text : event.text;
    streamed += event.text.length;
    if (text) emit({ type: 'answer_delta', text });
  };
}
