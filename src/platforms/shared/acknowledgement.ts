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

/** Emoji and Slack's `:names:` in a reply. */
const EMOJI_IN_TEXT = /\p{Extended_Pictographic}|:[a-z0-9_+-]+:/gu;

/** Whether a reply in a followed thread only says thanks or ok (see ACKNOWLEDGEMENTS), words, emoji or both. */
export function isAcknowledgement(text: string): boolean {
  const trimmed = text.trim().replace(MODIFIERS, ' ');
  if (trimmed.length === 0 || trimmed.length > 40) return false;
  if (KNOWN.has(trimmed.toLowerCase())) return true;
  const emoji = trimmed.match(EMOJI_IN_TEXT) ?? [];
  if (!emoji.every((e) => EMOJI.has(e) || KNOWN.has(e))) return false;
  const words = normal(trimmed.replace(EMOJI_IN_TEXT, ' '));
  return words === '' ? emoji.length > 0 : NORMAL.has(words);
}
