/**
 * Finding the protocol's labels (Thought / Action / Action Input / Final Answer / Observation) however a model
 * dresses them: markdown lists, headings and emphasis, numbering, Chinese labels, several labels on one line.
 * Every regex is anchored to a bounded slice or free of nested/adjacent unbounded quantifiers, so a scan stays
 * linear in the length of the reply.
 */
import { isBlank, scanBalanced } from './literal.js';

/** Which section of a reply a label opens. */
export type LabelKind = 'thought' | 'action' | 'input' | 'final' | 'observation';

/** One label found in a reply. */
export interface Label {
  kind: LabelKind;
  /** Offset of the label's first character (list prefix and bold opener included). */
  start: number;
  /** Offset just after the label's colon (and after a bold closer glued to it). */
  contentStart: number;
  /** An emphasis marker opened before the label and not closed next to it ('' when none). */
  open: string;
}

const SEP = '[ \\t_-]{0,3}';
/** Between the words of `Action Input`, where numbered replies put the step (`Action 2 Input`). */
const NUM_SEP = '[ \\t_-]{0,3}(?:\\d{1,3}[ \\t_-]{0,3})?';
const LABEL_WORDS = [
  `final${SEP}answer`,
  `final${SEP}response`,
  'answer',
  'thoughts?',
  `action${NUM_SEP}input`,
  `tool${NUM_SEP}input`,
  'input',
  'arguments',
  'action',
  'tool',
  'observation',
  '最终答案',
  '最终回答',
  '最終答案',
  '答案',
  '思考',
  '想法',
  '行动输入',
  '行動輸入',
  '动作输入',
  '行动',
  '行動',
  '动作',
  '观察',
  '觀察',
].join('|');

const EMPH = '(\\*\\*|__|\\*|_)?';
/** A label at the start of a line (applied to a bounded slice that starts at the first non-blank). */
const LINE_LABEL_RE = new RegExp(
  '^(?:(?:#{1,6}|>|[-+•]|\\*(?=[ \\t])|\\d{1,3}[.)]|\\(\\d{1,3}\\)|step[ \\t]{0,3}\\d{1,3}[ \\t]{0,3}[:.)-]?)[ \\t]{0,4})?' +
    `${EMPH}[ \\t]{0,3}(${LABEL_WORDS})(?:[ \\t]{0,3}\\d{1,3})?[ \\t]{0,3}${EMPH}[ \\t]{0,3}[:：]`,
  'i',
);
/** A markdown heading that is only a label (`## Final Answer`), its content on the following lines. */
const HEADING_LABEL_RE = new RegExp(
  `^#{1,6}[ \\t]{0,4}(\\*\\*|__)?(${LABEL_WORDS})(?:[ \\t]{0,3}\\d{1,3})?(\\*\\*|__)?[ \\t]{0,3}[:：]?[ \\t\\r]{0,8}$`,
  'i',
);
// No lookbehinds: what may precede an inline label is checked in code (afterThought / afterAction), which keeps
// the scan of a long line fast.
const INLINE_PREFIX = '(\\*\\*|__)?';
const INLINE_SUFFIX = '(?:[ \\t]{0,3}\\d{1,3})?(\\*\\*|__)?[ \\t]{0,3}[:：]';
/** Labels that may follow a Thought on the same line ("Thought: easy. Final Answer: 4"). */
const INLINE_AFTER_THOUGHT_RE = new RegExp(
  `${INLINE_PREFIX}(final${SEP}answer|action|最终答案|行动)${INLINE_SUFFIX}`,
  'gi',
);
/** Labels that may follow an Action on the same line ("Action: calculator Action Input: {…}"). */
const INLINE_AFTER_ACTION_RE = new RegExp(
  `${INLINE_PREFIX}(action${SEP}input|tool${SEP}input|observation|行动输入|观察)${INLINE_SUFFIX}`,
  'gi',
);

const isSpace = (c: string | undefined): boolean => c === ' ' || c === '\t';

/** After a sentence end (`easy. Final`), a wide gap, or as a bold label — not mid-sentence ("check the Action: x"). */
function afterThought(line: string, at: number, bold: boolean): boolean {
  let k = at - 1;
  while (k >= at - 3 && isSpace(line[k])) k--;
  if (k >= 0 && '.!?。！？;；:)]'.includes(line[k]!)) return true;
  if (isSpace(line[at - 1]) && isSpace(line[at - 2])) return true;
  return bold && /\s/.test(line[at - 1] ?? '');
}

/** At the start of the line or after a space, punctuation or markup. */
function afterAction(line: string, at: number): boolean {
  return at === 0 || /[\s.,;!?)\]*_>。，！？；]/.test(line[at - 1]!);
}

/** Longest prefix of a line that can hold a label; keeps the anchored regex's work bounded. */
const HEAD_LIMIT = 120;

function kindOf(word: string): LabelKind {
  switch (word.toLowerCase().replace(/[ \t_\d-]/g, '')) {
    case 'thought':
    case 'thoughts':
    case '思考':
    case '想法':
      return 'thought';
    case 'action':
    case 'tool':
    case '行动':
    case '行動':
    case '动作':
      return 'action';
    case 'actioninput':
    case 'toolinput':
    case 'input':
    case 'arguments':
    case '行动输入':
    case '行動輸入':
    case '动作输入':
      return 'input';
    case 'observation':
    case '观察':
    case '觀察':
      return 'observation';
    default:
      return 'final';
  }
}

/** Inline labels must look deliberate: capitalised (`Action:`, `Final answer:`), not prose like "my action:". */
function isDeliberate(word: string): boolean {
  const first = word[0] ?? '';
  return first.toLowerCase() === first.toUpperCase() || first === first.toUpperCase();
}

/** Builds a label from a regex match: `open` is the emphasis before the word, closed unless `closedBeforeColon`. */
function makeLabel(
  text: string,
  kind: LabelKind,
  start: number,
  afterColon: number,
  open: string | undefined,
  closedBeforeColon: boolean,
): Label {
  let contentStart = afterColon;
  let left = open && !closedBeforeColon ? open : '';
  // `**Final Answer:** text`: the closer glued to the colon belongs to the label.
  if (left && text.startsWith(left, afterColon)) {
    contentStart = afterColon + left.length;
    left = '';
  }
  return { kind, start, contentStart, open: left };
}

/** The label that `line` (starting at `lineStart` in the text) opens with, if any. */
function headLabel(text: string, line: string, lineStart: number): Label | undefined {
  let ws = 0;
  while (ws < line.length && (line[ws] === ' ' || line[ws] === '\t')) ws++;
  const head = line.slice(ws, ws + HEAD_LIMIT);
  const start = lineStart + ws;
  const m = LINE_LABEL_RE.exec(head);
  if (m) return makeLabel(text, kindOf(m[2]!), start, start + m[0].length, m[1], m[3] !== undefined);
  if (!head.startsWith('#') || line.length - ws > HEAD_LIMIT) return undefined;
  const h = HEADING_LABEL_RE.exec(head);
  return h ? { kind: kindOf(h[2]!), start, contentStart: lineStart + line.length, open: '' } : undefined;
}

/** The next label on `line` (which starts at `lineStart` in the text) from offset `from`, given the last kind. */
function inlineLabel(
  text: string,
  line: string,
  lineStart: number,
  from: number,
  last: LabelKind | undefined,
): Label | undefined {
  const re =
    last === 'action'
      ? INLINE_AFTER_ACTION_RE
      : last === undefined || last === 'thought' || last === 'observation'
        ? INLINE_AFTER_THOUGHT_RE
        : undefined;
  if (!re || from >= line.length) return undefined;
  // Most lines have no colon left; skip the regex for them.
  if (line.indexOf(':', from) < 0 && line.indexOf('：', from) < 0) return undefined;
  const placed = (m: RegExpExecArray): boolean =>
    re === INLINE_AFTER_ACTION_RE
      ? afterAction(line, m.index)
      : afterThought(line, m.index, m[1] !== undefined);
  re.lastIndex = from;
  let m = re.exec(line);
  while (m && !(placed(m) && isDeliberate(m[2]!))) {
    re.lastIndex = m.index + 1;
    m = re.exec(line);
  }
  if (!m) return undefined;
  const at = lineStart + m.index;
  return makeLabel(text, kindOf(m[2]!), at, at + m[0].length, m[1], m[3] !== undefined);
}

/**
 * Where scanning resumes after the JSON object / code fence that an Action (Input) label starts with, or -1.
 * Skipped regions never overlap, and after one search runs off the end of the text no other is tried, so the
 * searches cost O(n) in total.
 */
function payloadEnd(text: string, label: Label, state: { exhausted: boolean }): number {
  if (state.exhausted || (label.kind !== 'action' && label.kind !== 'input')) return -1;
  let p = label.contentStart;
  while (p < text.length && isBlank(text[p])) p++;
  let end = -1;
  if (text.startsWith('```', p)) {
    const close = text.indexOf('```', p + 3);
    if (close >= 0) end = close + 3;
  } else if (text[p] === '{') {
    end = scanBalanced(text, p).end;
  }
  if (end < 0) {
    state.exhausted = text[p] === '{' || text.startsWith('```', p);
    return -1;
  }
  const nl = text.indexOf('\n', end);
  return nl < 0 ? text.length + 1 : nl + 1;
}

/**
 * Yields the labels of `text` in order. Lazy, so callers stop as soon as they know the answer. A JSON object
 * or code fence right after an Action / Action Input is skipped, so keys like `thought:` inside it are not labels.
 */
export function* scanLabels(text: string): Generator<Label, void, undefined> {
  const n = text.length;
  const state = { exhausted: false };
  let kind: LabelKind | undefined;
  let lineStart = 0;
  while (lineStart <= n) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd < 0) lineEnd = n;
    let next = lineEnd + 1;
    // Inline labels are searched on the line alone, so a search never runs past its end.
    const line = text.slice(lineStart, lineEnd);
    let label = headLabel(text, line, lineStart) ?? inlineLabel(text, line, lineStart, 0, kind);
    while (label) {
      yield label;
      kind = label.kind;
      const skipTo = payloadEnd(text, label, state);
      if (skipTo >= 0) {
        next = skipTo;
        break;
      }
      label = inlineLabel(text, line, lineStart, label.contentStart - lineStart, kind);
    }
    if (lineEnd >= n) break;
    lineStart = next;
  }
}
