/**
 * Where a multi-line Action Input ends. Lines of `Key: value` pairs stay one input even when a key is named
 * like a label (`- Action: Send SMS` among `- To: …` lines); the input ends at a real next label or the end.
 */
import type { Label } from './labels.js';
import { leadingTool } from './tool-name.js';

/** A `Key: value` line: an optional list marker (group 1), a short key, a colon. */
const KEY_VALUE_RE =
  /^[ \t]{0,8}([-*•+][ \t]{1,3}|\d{1,2}[.)][ \t]{1,3})?(?:\*\*)?\p{L}[\p{L}\p{N} _'./-]{0,40}(?:\*\*)?[ \t]{0,3}[:：](?:[ \t]|$)/u;

/** The list marker of a `Key: value` line ('' when it has none, with digits as `1`), or undefined for other lines. */
function markerOf(line: string): string | undefined {
  const m = KEY_VALUE_RE.exec(line.slice(0, 120));
  return m ? (m[1] ?? '').trim().replace(/\d+/, '1') : undefined;
}

/** The words of the protocol's own input label, which never continue an input. */
const INPUT_LABEL_RE = /(?:action|tool)[ \t_-]{0,3}\d{0,3}[ \t_-]{0,3}input|行动输入|行動輸入|动作输入/i;

/**
 * Whether `next` (a label after the Action Input) is a key of the `Key: value` block the input holds rather
 * than the next section: the block runs up to it without a blank line, every line of it is a `Key: value`
 * pair with the same list marker as `next`'s line, and `next` is not a turn of its own (Thought, Observation,
 * Final Answer, another Action Input). Without list markers only an `Action:` key that names no known tool
 * continues the block.
 */
export function continuesInput(
  body: string,
  input: Label,
  next: Label,
  toolNames: readonly string[],
): boolean {
  if (next.kind === 'thought' || next.kind === 'observation') return false;
  const lineEnd = body.indexOf('\n', next.start);
  const line = body.slice(body.lastIndexOf('\n', next.start - 1) + 1, lineEnd < 0 ? body.length : lineEnd);
  const marker = markerOf(line);
  if (marker === undefined || INPUT_LABEL_RE.test(body.slice(next.start, next.contentStart))) return false;
  const lines = body.slice(input.contentStart, next.start).split('\n');
  if (lines.at(-1)?.trim() !== '' || lines.length < 2) return false;
  const block = lines.slice(0, -1);
  // The text on the label's own line, then the block's lines: all pairs, none blank once the block began.
  if (block[0]!.trim() !== '' && markerOf(block[0]!) !== '') return false;
  if (block.slice(1).some((r) => markerOf(r) !== marker)) return false;
  if (marker !== '') return !/final/i.test(body.slice(next.start, next.contentStart));
  return next.kind === 'action' && !leadingTool(body.slice(next.contentStart, lineEnd), toolNames, true);
}
