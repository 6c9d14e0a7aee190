import { answerCutNote } from './wording.js';

const FENCE = /^\s*(```+|~~~+)(.*)$/;

/**
 * Splits `text` into messages of at most `limit` characters: at paragraph breaks, else line breaks,
 * else spaces, never inside a word (unless one word alone exceeds the limit). A code block cut in two
 * is closed at the end of one part and reopened, with its language, at the start of the next.
 */
export function splitMessage(text: string, limit: number): string[] {
  if (limit < 20) throw new RangeError('limit too small to split messages sensibly');
  const parts: string[] = [];
  let rest = text;
  let reopen = ''; // fence opener carried into the next part, e.g. "```ts\n"
  while (rest.length > 0) {
    const budget = limit - reopen.length;
    if (rest.length <= budget && !endsInsideFence(reopen + rest)) {
      parts.push(reopen + rest);
      break;
    }
    // Leave room to close a fence that may be open at the cut.
    const room = Math.min(rest.length, budget - 4);
    const cut = rest.length <= room ? rest.length : findCut(rest, room);
    let chunk = reopen + rest.slice(0, cut).trimEnd();
    rest = rest.slice(cut);
    // Drop the break we cut at, but keep the indentation of the next line (it matters in code).
    rest = /^[ \t]*\n/.test(rest) ? rest.replace(/^(?:[ \t]*\n)+/, '') : rest.replace(/^[ \t]+/, '');
    const open = openFence(chunk);
    if (open !== undefined && rest.length > 0) {
      chunk += `\n${fenceMarker(open)}`;
      reopen = `${open}\n`;
    } else {
      reopen = '';
    }
    if (chunk.trim()) parts.push(chunk);
  }
  return parts.length > 0 ? parts : [''];
}

/**
 * Like {@link splitMessage}, but at most `maxParts` parts: past that the text is cut, and the last part
 * ends with a note saying how much is shown (so one answer can never become thousands of messages).
 */
export function splitCapped(text: string, limit: number, maxParts: number): string[] {
  const parts = splitMessage(text, limit);
  if (parts.length <= maxParts) return parts;
  const kept = parts.slice(0, maxParts);
  const shownChars = () => kept.reduce((n, part) => n + part.length, 0);
  const note = answerCutNote(shownChars(), text.length);
  const last = kept[maxParts - 1]!;
  const room = limit - note.length - 1;
  kept[maxParts - 1] = last.length <= room ? last : splitMessage(last, room)[0]!;
  kept[maxParts - 1] += `\n${answerCutNote(shownChars(), text.length)}`;
  return kept;
}

/** The best place to cut within the first `room` characters. */
function findCut(text: string, room: number): number {
  const window = text.slice(0, room + 1);
  const floor = Math.floor(room * 0.5);
  const paragraph = window.lastIndexOf('\n\n');
  if (paragraph > floor) return paragraph;
  const line = window.lastIndexOf('\n');
  if (line > floor) return line;
  const space = Math.max(window.lastIndexOf(' '), window.lastIndexOf('\t'));
  if (space > 0) return space;
  // A single word longer than the limit: cut it, but never between the halves of a surrogate pair.
  const code = text.charCodeAt(room - 1);
  return code >= 0xd800 && code <= 0xdbff ? room - 1 : room;
}

/**
 * The opener line (e.g. "```ts") of a code block still open at the end of `text`, if any. As in
 * CommonMark, a block is closed only by a fence of the same character, at least as long, with no info.
 */
function openFence(text: string): string | undefined {
  let open: string | undefined;
  for (const line of text.split('\n')) {
    const match = FENCE.exec(line);
    if (!match) continue;
    const [, marker, info] = match as unknown as [string, string, string];
    if (open === undefined) {
      open = `${marker}${info.trim()}`;
    } else {
      const opener = fenceMarker(open);
      if (marker[0] === opener[0] && marker.length >= opener.length && !info.trim()) open = undefined;
    }
  }
  return open;
}

/** The fence characters of an opener line ("~~~py" → "~~~"), which must also close it. */
function fenceMarker(opener: string): string {
  return /^(`+|~+)/.exec(opener)?.[1] ?? '```';
}

function endsInsideFence(text: string): boolean {
  return openFence(text) !== undefined;
}
