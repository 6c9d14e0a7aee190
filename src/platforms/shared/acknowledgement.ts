import { ACKNOWLEDGEMENTS } from './wording.js';

const KNOWN = new Set(ACKNOWLEDGEMENTS);
/** Punctuation and spacing that do not change what a short reply says ("Thanks!!", "ok, thanks."). */
const NOISE = /[\s.,!?;:~…。！，、？'"“”‘’()-]+/gu;

/** The form a reply is compared in: lower case, single spaces, no punctuation around or between words. */
function normal(text: string): string {
  return text.toLowerCase().replace(NOISE, ' ').trim();
}

const NORMAL = new Set(ACKNOWLEDGEMENTS.map(normal).filter(Boolean));
/** What does not tell emoji apart: variation selectors and skin tones (👍🏽 is 👍). */
const MODIFIERS = /\s|\uFE0F|[\u{1F3FB}-\u{1F3FF}]/gu;
const EMOJI = new Set(
  ACKNOWLEDGEMENTS.map((a) => a.replace(MODIFIERS, '')).filter((a) => /^\p{Extended_Pictographic}$/u.test(a)),
);

/** Whether a reply in a followed thread only says thanks or ok (see ACKNOWLEDGEMENTS). */
export function isAcknowledgement(text: string): boolean {
  const trimmed = text.trim();
  if (trimmed.length === 0 || trimmed.length > 40) return false;
  if (KNOWN.has(trimmed) || KNOWN.has(trimmed.toLowerCase())) return true;
  const words = normal(trimmed);
  if (NORMAL.has(words)) return true;
  // Only emoji (and the ones the list names): "👍👍", "🙏 🙌".
  const emoji = [...trimmed.replace(MODIFIERS, '')];
  return emoji.length > 0 && emoji.every((c) => EMOJI.has(c));
}
