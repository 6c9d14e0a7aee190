/**
 * The tokenizer's cost grows with the square of a run of characters it cannot split (a word, a URL, or a
 * model repeating one letter for a megabyte). Text is handed to it in pieces cut where it would cut anyway
 * (before the space that starts a word), so the count stays what it would be for the whole text, and no
 * piece or run is longer than a small bound, so the cost stays linear in the length.
 */

/** Pieces grow to about this many characters before they are cut at the next word. */
export const PIECE_CHARS = 1024;

/** A run of characters without whitespace is cut every this many characters (it costs a few tokens more). */
export const RUN_CHARS = 64;

const isSpace = (code: number) =>
  code === 32 || (code >= 9 && code <= 13) || code === 0xa0 || code === 0x3000 || code === 0x2028;
const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

/** `text` in consecutive pieces of bounded length that together are exactly `text`. */
export function* tokenPieces(text: string): Generator<string> {
  let start = 0;
  let run = 1;
  for (let i = 1; i < text.length; i++) {
    const space = isSpace(text.charCodeAt(i));
    const spaceBefore = isSpace(text.charCodeAt(i - 1));
    if (space !== spaceBefore) {
      run = 1;
      // " word" is one token's start, so cutting before that space changes nothing.
      if (!space && i - 1 - start >= PIECE_CHARS) {
        yield text.slice(start, i - 1);
        start = i - 1;
      }
    } else if (++run > RUN_CHARS && !isHighSurrogate(text.charCodeAt(i - 1))) {
      yield text.slice(start, i);
      start = i;
      run = 1;
    }
  }
  if (start < text.length) yield text.slice(start);
}
