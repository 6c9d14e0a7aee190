/**
 * A forgiving parser for the text ReAct protocol:
 *
 *   Thought: <reasoning>
 *   Action: <tool name>
 *   Action Input: <JSON object>
 *
 * or `Thought: … / Final Answer: …`. Pure functions only, so they can be tested on collected model outputs.
 * Every regex here is either anchored to a bounded slice or free of nested/adjacent unbounded quantifiers,
 * so parsing stays linear in the length of the reply.
 */

/** What one model reply asks the agent to do: call a tool, answer the user, or be reminded of the format. */
export type ReactStep =
  | { kind: 'action'; thought: string | undefined; tool: string; input: Record<string, unknown> | string }
  | { kind: 'final'; thought: string | undefined; answer: string }
  | { kind: 'invalid'; thought: string | undefined; reason: string };

type LabelKind = 'thought' | 'action' | 'input' | 'final' | 'observation';

interface Label {
  kind: LabelKind;
  /** Offset of the label's first character (list prefix and bold opener included). */
  start: number;
  /** Offset just after the label's colon (and after a bold closer glued to it). */
  contentStart: number;
  /** An emphasis marker opened before the label and not closed next to it ('' when none). */
  open: string;
}

type Input = Record<string, unknown> | string;

// ---------------------------------------------------------------------------------------------------------
// Label recognition
// ---------------------------------------------------------------------------------------------------------

const SEP = '[ \\t_-]{0,3}';
const LABEL_WORDS = [
  `final${SEP}answer`,
  `final${SEP}response`,
  'answer',
  'thoughts?',
  `action${SEP}input`,
  `tool${SEP}input`,
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
const INLINE_PREFIX = '(?<=^|[\\s.,;!?)\\]*_>。，！？；])(\\*\\*|__)?';
const INLINE_SUFFIX = '(?:[ \\t]{0,3}\\d{1,3})?(\\*\\*|__)?[ \\t]{0,3}[:：]';
/** After a sentence end (`easy. Final`), a wide gap, or as a bold label — not mid-sentence ("check the Action: x"). */
const INLINE_THOUGHT_PREFIX =
  '(?:(?<=[.!?。！？;；:)\\]][ \\t]{0,3})|(?<=[ \\t]{2})|(?<=\\s)(?=\\*\\*|__))(\\*\\*|__)?';
/** Labels that may follow a Thought on the same line ("Thought: easy. Final Answer: 4"). */
const INLINE_AFTER_THOUGHT_RE = new RegExp(
  `${INLINE_THOUGHT_PREFIX}(final${SEP}answer|action|最终答案|行动)${INLINE_SUFFIX}`,
  'gi',
);
/** Labels that may follow an Action on the same line ("Action: calculator Action Input: {…}"). */
const INLINE_AFTER_ACTION_RE = new RegExp(
  `${INLINE_PREFIX}(action${SEP}input|tool${SEP}input|observation|行动输入|观察)${INLINE_SUFFIX}`,
  'gi',
);

/** Longest prefix of a line that can hold a label; keeps the anchored regex's work bounded. */
const HEAD_LIMIT = 120;

function kindOf(word: string): LabelKind {
  const w = word.toLowerCase().replace(/[ \t_-]/g, '');
  switch (w) {
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

function isBlank(c: string | undefined): boolean {
  return c === ' ' || c === '\t' || c === '\r' || c === '\n';
}

/**
 * Yields the labels of `text` in order. Lazy, so callers stop as soon as they know the answer. A JSON object
 * or code fence right after an Action / Action Input is skipped, so keys like `thought:` inside it are not labels.
 */
function* scanLabels(text: string): Generator<Label, void, undefined> {
  const n = text.length;
  const state = { exhausted: false };
  let kind: LabelKind | undefined;
  let lineStart = 0;
  while (lineStart <= n) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd < 0) lineEnd = n;
    let next = lineEnd + 1;
    let pos = lineStart;
    let skipped = false;

    let ws = lineStart;
    while (ws < lineEnd && (text[ws] === ' ' || text[ws] === '\t')) ws++;
    const head = text.slice(ws, Math.min(lineEnd, ws + HEAD_LIMIT));
    let found: Label | undefined;
    const m = LINE_LABEL_RE.exec(head);
    if (m) {
      found = makeLabel(text, kindOf(m[2]!), ws, ws + m[0].length, m[1], m[3] !== undefined);
    } else if (head.startsWith('#') && lineEnd - ws <= HEAD_LIMIT) {
      const h = HEADING_LABEL_RE.exec(head);
      if (h) found = { kind: kindOf(h[2]!), start: ws, contentStart: lineEnd, open: '' };
    }
    if (found) {
      yield found;
      kind = found.kind;
      pos = found.contentStart;
      const skipTo = payloadEnd(text, found, state);
      if (skipTo >= 0) {
        next = skipTo;
        skipped = true;
      }
    }

    // Labels later on the same line.
    let line: string | undefined;
    while (!skipped && pos < lineEnd) {
      const re =
        kind === 'action'
          ? INLINE_AFTER_ACTION_RE
          : kind === undefined || kind === 'thought' || kind === 'observation'
            ? INLINE_AFTER_THOUGHT_RE
            : undefined;
      if (!re) break;
      line ??= text.slice(lineStart, lineEnd);
      const from = pos - lineStart;
      if (line.indexOf(':', from) < 0 && line.indexOf('：', from) < 0) break;
      re.lastIndex = from;
      let im: RegExpExecArray | null = re.exec(line);
      while (im && !isDeliberate(im[2]!)) im = re.exec(line);
      if (!im) break;
      const label = makeLabel(
        text,
        kindOf(im[2]!),
        lineStart + im.index,
        lineStart + im.index + im[0].length,
        im[1],
        im[3] !== undefined,
      );
      yield label;
      kind = label.kind;
      pos = label.contentStart;
      const skipTo = payloadEnd(text, label, state);
      if (skipTo >= 0) {
        next = skipTo;
        skipped = true;
      }
    }
    if (lineEnd >= n) break;
    lineStart = next;
  }
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

// ---------------------------------------------------------------------------------------------------------
// Brackets, strings and loose JSON
// ---------------------------------------------------------------------------------------------------------

const CLOSER: Record<string, string> = { '{': '}', '[': ']', '(': ')' };

/** Finds the end (exclusive) of the bracketed value starting at `start`, skipping quoted strings. */
function scanBalanced(s: string, start: number): { end: number; closers: string; inString: boolean } {
  const stack: string[] = [];
  let quote = '';
  for (let i = start; i < s.length; i++) {
    const c = s[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c in CLOSER) stack.push(CLOSER[c]!);
    else if (c === '}' || c === ']' || c === ')') {
      stack.pop();
      if (stack.length === 0) return { end: i + 1, closers: '', inString: false };
    }
  }
  return { end: -1, closers: stack.reverse().join(''), inString: quote !== '' };
}

function tryJson(s: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(s) as unknown };
  } catch {
    return undefined;
  }
}

function asObject(v: unknown): Record<string, unknown> | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v)
    ? (v as Record<string, unknown>)
    : undefined;
}

const IDENT_START = /[A-Za-z_$]/;
const IDENT_PART = /[\w$]/;
const NUMBER_PART = /[\d.eE+-]/;

/**
 * Rewrites JavaScript/Python-flavoured object literals as JSON: single-quoted strings, raw newlines in strings,
 * unquoted keys, trailing commas, comments, True/False/None. Returns undefined for anything else.
 */
function repairJson(s: string): string | undefined {
  let out = '';
  const n = s.length;
  let i = 0;
  while (i < n) {
    const c = s[i]!;
    if (c === '"' || c === "'") {
      let str = '';
      i++;
      for (; i < n && s[i] !== c; i++) {
        const d = s[i]!;
        if (d === '\\' && i + 1 < n) {
          const e = s[++i]!;
          str += e === "'" ? "'" : `\\${e}`;
        } else if (d === '"') str += '\\"';
        else if (d === '\n') str += '\\n';
        else if (d === '\r') str += '\\r';
        else if (d === '\t') str += '\\t';
        else str += d;
      }
      if (i >= n) return undefined;
      i++;
      out += `"${str}"`;
    } else if (c === '/' && s[i + 1] === '/') {
      while (i < n && s[i] !== '\n') i++;
    } else if (c === '/' && s[i + 1] === '*') {
      const close = s.indexOf('*/', i + 2);
      if (close < 0) return undefined;
      i = close + 2;
    } else if (IDENT_START.test(c)) {
      let j = i + 1;
      while (j < n && IDENT_PART.test(s[j]!)) j++;
      const word = s.slice(i, j);
      i = j;
      if (word === 'true' || word === 'True') out += 'true';
      else if (word === 'false' || word === 'False') out += 'false';
      else if (word === 'null' || word === 'None') out += 'null';
      else {
        let k = j;
        while (k < n && isBlank(s[k])) k++;
        if (s[k] !== ':') return undefined;
        out += `"${word}"`;
      }
    } else if (c === '-' || (c >= '0' && c <= '9')) {
      let j = i + 1;
      while (j < n && NUMBER_PART.test(s[j]!)) j++;
      out += s.slice(i, j);
      i = j;
    } else if (c === ',') {
      let k = i + 1;
      while (k < n && isBlank(s[k])) k++;
      if (s[k] !== '}' && s[k] !== ']') out += ',';
      i++;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** Parses a JSON(-ish) literal: strict JSON first, then the repaired form. */
function parseLiteral(s: string): { value: unknown } | undefined {
  const strict = tryJson(s);
  if (strict) return strict;
  const repaired = repairJson(s);
  return repaired === undefined ? undefined : tryJson(repaired);
}

/** Parses the object that `s` starts with (`{`), ignoring trailing text and closing up to two missing brackets. */
function parseObject(s: string): Record<string, unknown> | undefined {
  const b = scanBalanced(s, 0);
  let candidate: string;
  if (b.end >= 0) candidate = s.slice(0, b.end);
  else if (!b.inString && b.closers.length <= 2) candidate = s.trimEnd() + b.closers;
  else return undefined;
  const parsed = parseLiteral(candidate);
  return parsed ? asObject(parsed.value) : undefined;
}

/** End (exclusive) of the quoted string starting at `start`, or -1. */
function stringEnd(s: string, start: number): number {
  const q = s[start];
  for (let i = start + 1; i < s.length; i++) {
    if (s[i] === '\\') i++;
    else if (s[i] === q) return i + 1;
  }
  return -1;
}

/** Splits on commas that are outside strings and brackets. */
function splitTopLevel(s: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === '"' || c === "'") {
      const end = stringEnd(s, i);
      if (end < 0) return [s];
      i = end - 1;
    } else if (c === '{' || c === '[' || c === '(') depth++;
    else if (c === '}' || c === ']' || c === ')') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(s.slice(from, i));
      from = i + 1;
    }
  }
  parts.push(s.slice(from));
  return parts;
}

/** `expression="2+2", precision=2` → an object, when every part is `name=literal` or `name: literal`. */
function parseKeywordArgs(s: string): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const part of splitTopLevel(s)) {
    const eq = part.search(/[=:]/);
    if (eq < 0 || part[eq + 1] === '=') return undefined;
    const key = part.slice(0, eq).trim();
    if (!/^[A-Za-z_]\w{0,63}$/.test(key)) return undefined;
    const value = parseLiteral(part.slice(eq + 1).trim());
    if (!value) return undefined;
    out[key] = value.value;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

// ---------------------------------------------------------------------------------------------------------
// Sections: fences, emphasis, inputs
// ---------------------------------------------------------------------------------------------------------

const FENCE_LANG_RE =
  /^(?:json5?|jsonc|js|javascript|ts|typescript|python|py|text|txt|plaintext|yaml|sh|bash)[ \t]+/i;

/** The content of the code fence that `s` starts with (language tag dropped, text after the fence ignored). */
function stripFence(s: string): string {
  const firstNl = s.indexOf('\n');
  if (firstNl < 0) {
    const inner = s.slice(3).replace(FENCE_LANG_RE, '');
    const close = inner.indexOf('```');
    return close >= 0 ? inner.slice(0, close) : inner;
  }
  const body = s.slice(firstNl + 1);
  const close = body.startsWith('```') ? 0 : body.indexOf('\n```');
  return close < 0 ? body : body.slice(0, close);
}

function isFenceLine(line: string): boolean {
  return line.trimStart().startsWith('```');
}

/** Drops an unpaired fence line at the end (or start) left by a reply wrapped whole in a code fence. */
function dropDanglingFence(s: string): string {
  if (!s.includes('```')) return s;
  const lines = s.split('\n');
  if (lines.filter(isFenceLine).length % 2 === 0) return s;
  if (/^\s*```[\w-]*\s*$/.test(lines.at(-1) ?? '')) return lines.slice(0, -1).join('\n').trimEnd();
  if (/^\s*```[\w-]*\s*$/.test(lines[0] ?? '')) return lines.slice(1).join('\n').trimStart();
  return s;
}

function countOccurrences(s: string, marker: string): number {
  let count = 0;
  for (let i = s.indexOf(marker); i >= 0; i = s.indexOf(marker, i + marker.length)) count++;
  return count;
}

/** The trimmed text of a section, with a bold marker left open by its label (`**Thought: x**`) removed. */
function sectionText(body: string, label: Label, end: number): string {
  let s = body.slice(label.contentStart, end);
  if (label.open) {
    const nl = s.indexOf('\n');
    const first = (nl < 0 ? s : s.slice(0, nl)).trimEnd();
    if (first.endsWith(label.open) && countOccurrences(first, label.open) % 2 === 1) {
      s = first.slice(0, -label.open.length) + (nl < 0 ? '' : s.slice(nl));
    }
  }
  return s.trim();
}

/** Removes a made-up observation that follows a raw input on the same line or the next. */
function cutObservation(s: string): string {
  const i = s.search(/(?:^|\s)Observation[ \t]{0,3}[:：]/);
  let out = i < 0 ? s : s.slice(0, i);
  out = out.trimEnd();
  if (out.endsWith('\nPAUSE')) out = out.slice(0, -6).trimEnd();
  return out;
}

const EMPTY_INPUT_RE = /^(?:none|null|nil|n\/?a|nothing|no input|empty|\{\s{0,8}\}|\(\s{0,8}\))$/i;

/** Interprets a tool input: a JSON(-ish) object, a quoted string, or else the raw text; empty → {}. */
function parseInput(raw: string): Input {
  let s = raw.trim();
  if (s.startsWith('```')) s = stripFence(s).trim();
  else if (s.startsWith('`')) {
    let a = 0;
    let b = s.length;
    while (a < b && s[a] === '`') a++;
    while (b > a && s[b - 1] === '`') b--;
    s = s.slice(a, b).trim();
  }
  if (!s || (s.length <= 20 && EMPTY_INPUT_RE.test(s))) return {};
  if (s.startsWith('{')) return parseObject(s) ?? cutObservation(s);
  if (s.startsWith('"') || s.startsWith("'")) {
    const end = stringEnd(s, 0);
    if (end > 0 && s.slice(end).trim() === '') {
      const lit = parseLiteral(s.slice(0, end));
      if (lit && typeof lit.value === 'string') {
        const inner = lit.value.trim();
        return (inner.startsWith('{') ? parseObject(inner) : undefined) ?? lit.value;
      }
    }
  }
  const out = dropDanglingFence(cutObservation(s));
  return out ? out : {};
}

/** Interprets the text between the parentheses of `tool(...)`. */
function parseCallArgs(inner: string): Input {
  const s = inner.trim();
  if (!s) return {};
  if (s.startsWith('{')) {
    const obj = parseObject(s);
    if (obj) return obj;
  }
  const kwargs = parseKeywordArgs(s);
  if (kwargs) return kwargs;
  const lit = parseLiteral(s);
  if (lit && typeof lit.value === 'string') return lit.value;
  return s;
}

// ---------------------------------------------------------------------------------------------------------
// Tool names
// ---------------------------------------------------------------------------------------------------------

const LEAD_WRAP = '`\'"*[<(';
const TRAIL_WRAP = '`\'"*]>.,;:!?';

/** Strips wrappers a model puts around a name: backticks, quotes, asterisks, brackets, trailing punctuation, `()`. */
function cleanName(s: string): string {
  let t = s.trim();
  for (let round = 0; round < 4; round++) {
    let a = 0;
    let b = t.length;
    while (a < b && LEAD_WRAP.includes(t[a]!)) a++;
    while (b > a && TRAIL_WRAP.includes(t[b - 1]!)) b--;
    let next = t.slice(a, b);
    if (next.endsWith('()')) next = next.slice(0, -2);
    next = next.trim();
    if (next === t) break;
    t = next;
  }
  return t;
}

function nameKey(s: string): string {
  return s.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
}

/** The entry of `toolNames` that `name` means (exact, case-insensitive, namespaced or `-`/`_`/space-insensitive). */
function matchTool(name: string, toolNames: readonly string[]): string | undefined {
  const clean = cleanName(name);
  if (!clean || clean.length > 200) return undefined;
  const candidates = [clean];
  const segments = clean.split(/[.:/]/).filter(Boolean);
  const last = segments.at(-1);
  if (last && last !== clean) candidates.push(last);
  for (const c of candidates) if (toolNames.includes(c)) return c;
  for (const c of candidates) {
    const lower = c.toLowerCase();
    const hit = toolNames.find((t) => t.toLowerCase() === lower);
    if (hit) return hit;
  }
  for (const c of candidates) {
    const key = nameKey(c);
    const hit = key ? toolNames.find((t) => nameKey(t) === key) : undefined;
    if (hit) return hit;
  }
  return undefined;
}

/** The one tool mentioned as a word in a sentence ("I will use the calculator tool"), if exactly one is. */
function findToolWord(line: string, toolNames: readonly string[]): string | undefined {
  const found = new Set<string>();
  for (const word of line.slice(0, 300).split(/[^\p{L}\p{N}_.-]+/u)) {
    const hit = matchTool(word, toolNames);
    if (hit) found.add(hit);
  }
  return found.size === 1 ? [...found][0] : undefined;
}

const NO_TOOL_RE = /^(?:none|null|nil|n\/?a|no[ _-]?action|nothing|no tool|-+)$/i;
const NAME_RE = /^[`'"*<[]*([\p{L}\p{N}_][\p{L}\p{N}_./-]*)/u;
const ARG_SEPARATORS = ':=,-—|：';

function isFinalAnswerName(name: string, toolNames: readonly string[]): boolean {
  const key = nameKey(name);
  return (key === 'finalanswer' || key === '最终答案') && !matchTool(name, toolNames);
}

interface ParsedAction {
  tool: string;
  inline: Input | undefined;
}

/** The tool name (canonicalised when known) and any input written on the Action line itself. */
function parseAction(content: string, toolNames: readonly string[]): ParsedAction {
  let s = content.trim();
  if (s.startsWith('```')) s = stripFence(s).trim();
  if (s.startsWith('{')) {
    const obj = parseObject(s);
    const blob = obj ? interpretBlob(obj) : undefined;
    if (!blob) return { tool: '', inline: undefined };
    return { tool: matchTool(blob.tool, toolNames) ?? blob.tool, inline: blob.input };
  }
  const nl = s.indexOf('\n');
  const firstLine = (nl < 0 ? s : s.slice(0, nl)).trim();
  const restLines = nl < 0 ? '' : s.slice(nl + 1).trim();
  const restInput = restLines ? parseInput(restLines) : undefined;
  if (NO_TOOL_RE.test(cleanName(firstLine).slice(0, 20))) return { tool: '', inline: undefined };

  const m = NAME_RE.exec(s);
  if (m) {
    const lead = m[0].length - m[1]!.length;
    let token = m[1]!;
    while (token.length > 1 && '.-/'.includes(token.at(-1)!)) token = token.slice(0, -1);
    let p = lead + token.length;
    const closers = m[0].slice(0, lead).includes('[') ? '`\'"*>]' : '`\'"*>';
    while (p < s.length && closers.includes(s[p]!)) p++;
    const known = matchTool(token, toolNames);
    const c = s[p];
    if (c === '(' || c === '[') {
      const b = scanBalanced(s, p);
      return {
        tool: known ?? token,
        inline: parseCallArgs(b.end >= 0 ? s.slice(p + 1, b.end - 1) : s.slice(p + 1)),
      };
    }
    let q = p;
    while (q < s.length && isBlank(s[q])) q++;
    const after = s.slice(q);
    if (after && (ARG_SEPARATORS.includes(after[0]!) || after.startsWith('{') || after.startsWith('```'))) {
      const rest = ARG_SEPARATORS.includes(after[0]!) ? after.slice(1) : after;
      return { tool: known ?? token, inline: rest.trim() ? parseInput(rest) : undefined };
    }
    const whole = matchTool(firstLine, toolNames);
    if (whole) return { tool: whole, inline: restInput };
    if (known) return { tool: known, inline: after ? parseInput(after) : undefined };
  }
  const mentioned = findToolWord(firstLine, toolNames);
  if (mentioned) return { tool: mentioned, inline: restInput };
  return { tool: cleanName(firstLine), inline: restInput };
}

/** A LangChain-style JSON action (`{"action": "calculator", "action_input": {...}}`) or a leaked tool call. */
function interpretBlob(obj: Record<string, unknown>): { tool: string; input: Input } | undefined {
  const fn = asObject(obj.function);
  const name = [obj.action, obj.tool, obj.tool_name, obj.name, fn?.name].find(
    (v): v is string => typeof v === 'string' && v.trim() !== '',
  );
  if (!name) return undefined;
  const raw = [
    obj.action_input,
    obj.tool_input,
    obj.input,
    obj.arguments,
    obj.args,
    obj.parameters,
    fn?.arguments,
  ].find((v) => v !== undefined && v !== null);
  let input: Input = {};
  if (typeof raw === 'string') input = parseInput(raw);
  else if (asObject(raw)) input = asObject(raw)!;
  else if (raw !== undefined) input = JSON.stringify(raw);
  return { tool: name.trim(), input };
}

/** The text of an answer given as a tool input (`Action: Final Answer` / `"action": "Final Answer"`). */
function inputAsAnswer(input: Input): string {
  if (typeof input === 'string') return input.trim();
  const values = Object.values(input);
  if (values.length === 1 && typeof values[0] === 'string') return values[0].trim();
  return values.length === 0 ? '' : JSON.stringify(input);
}

// ---------------------------------------------------------------------------------------------------------
// <think> blocks
// ---------------------------------------------------------------------------------------------------------

function blank(s: string): string {
  return s.replace(/[^\n\r]/g, ' ');
}

/**
 * Blanks out `<think>…</think>` reasoning (offsets are preserved) and returns it separately. An unclosed
 * `<think>` hides the rest; a lone `</think>` hides everything before it (servers that drop the opening tag).
 */
function maskThinking(text: string): { text: string; thinking: string } {
  if (!/<\/?think/i.test(text)) return { text, thinking: '' };
  const re = /<(\/?)think(?:ing)?>/gi;
  const parts: string[] = [];
  const thoughts: string[] = [];
  let last = 0;
  let openAt = -1;
  let contentAt = -1;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const end = m.index + m[0].length;
    if (!m[1]) {
      if (openAt < 0) {
        parts.push(text.slice(last, m.index));
        openAt = m.index;
        contentAt = end;
      }
    } else if (openAt >= 0) {
      thoughts.push(text.slice(contentAt, m.index));
      parts.push(blank(text.slice(openAt, end)));
      last = end;
      openAt = -1;
    } else if (last === 0 && parts.length === 0) {
      thoughts.push(text.slice(0, m.index));
      parts.push(blank(text.slice(0, end)));
      last = end;
    }
  }
  if (openAt >= 0) {
    thoughts.push(text.slice(contentAt));
    parts.push(blank(text.slice(openAt)));
    last = text.length;
  }
  parts.push(text.slice(last));
  return {
    text: parts.join(''),
    thinking: thoughts
      .map((t) => t.trim())
      .filter(Boolean)
      .join('\n\n'),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Public API
// ---------------------------------------------------------------------------------------------------------

function invalid(thought: string | undefined, reason: string): ReactStep {
  return { kind: 'invalid', thought, reason };
}

function finalStep(body: string, label: Label, thought: string | undefined): ReactStep {
  const answer = dropDanglingFence(sectionText(body, label, body.length)).trim();
  return answer ? { kind: 'final', thought, answer } : invalid(thought, 'Final Answer is empty');
}

/**
 * The Thought nearest before `end` (the decisive label), else the text before the first label, else the
 * `<think>` text. `before` are the labels found before `end`.
 */
function findThought(
  body: string,
  before: readonly Label[],
  end: number,
  thinking: string,
): string | undefined {
  for (let i = before.length - 1; i >= 0; i--) {
    const label = before[i]!;
    if (label.kind === 'thought') {
      return dropDanglingFence(sectionText(body, label, before[i + 1]?.start ?? end)) || undefined;
    }
  }
  const first = before[0];
  if (first || end < body.length) {
    const preamble = body
      .slice(0, first?.start ?? end)
      .split('\n')
      .filter((line) => !isFenceLine(line))
      .join('\n')
      .trim();
    if (preamble) return preamble;
  }
  return thinking || undefined;
}

function isDecisive(label: Label): boolean {
  return label.kind === 'action' || label.kind === 'final';
}

/** Looks for a JSON action object in a reply that has no Action / Final Answer label. */
function findBlob(body: string, toolNames: readonly string[]): { step: ReactStep; at: number } | undefined {
  let tries = 0;
  for (let i = body.indexOf('{'); i >= 0 && tries < 3; i = body.indexOf('{', i + 1)) {
    let k = i - 1;
    while (k >= 0 && (body[k] === ' ' || body[k] === '\t')) k--;
    if (k >= 0 && body[k] !== '\n') continue;
    tries++;
    const obj = parseObject(body.slice(i));
    const blob = obj ? interpretBlob(obj) : undefined;
    if (!blob) continue;
    if (isFinalAnswerName(blob.tool, toolNames)) {
      const answer = inputAsAnswer(blob.input);
      return answer ? { step: { kind: 'final', thought: undefined, answer }, at: i } : undefined;
    }
    const tool = matchTool(blob.tool, toolNames) ?? blob.tool;
    return { step: { kind: 'action', thought: undefined, tool, input: blob.input }, at: i };
  }
  return undefined;
}

/** Parses one model reply in the text ReAct protocol into the step the agent should take. */
export function parseReactOutput(text: string, toolNames: readonly string[]): ReactStep {
  const normalized = text.replace(/\r\n?/g, '\n');
  if (!normalized.trim()) return invalid(undefined, 'empty reply');
  const { text: body, thinking } = maskThinking(normalized);

  const scanner = scanLabels(body);
  const pull = (): Label | undefined => {
    const r = scanner.next();
    return r.done ? undefined : r.value;
  };
  const labels: Label[] = [];
  let decisive: Label | undefined;
  for (let label = pull(); label; label = pull()) {
    labels.push(label);
    if (isDecisive(label)) {
      decisive = label;
      break;
    }
  }
  if (!decisive) {
    const blob = findBlob(body, toolNames);
    if (blob) {
      const thought = findThought(
        body,
        labels.filter((l) => l.start < blob.at),
        blob.at,
        thinking,
      );
      return { ...blob.step, thought };
    }
    const reason = labels.some((l) => l.kind === 'input')
      ? 'Action Input without an Action'
      : 'no Action or Final Answer found';
    return invalid(findThought(body, labels, body.length, thinking), reason);
  }
  const thought = findThought(body, labels.slice(0, -1), decisive.start, thinking);
  if (decisive.kind === 'final') return finalStep(body, decisive, thought);

  // The Action and its Action Input (after it, or just before it); a bounded number of pulls keeps this linear.
  let terminator = pull();
  let inputLabel: Label | undefined;
  let inputEnd = body.length;
  if (terminator?.kind === 'input') {
    inputLabel = terminator;
    terminator = pull();
    inputEnd = terminator?.start ?? body.length;
  } else if (labels.at(-2)?.kind === 'input') {
    inputLabel = labels.at(-2);
    inputEnd = decisive.start;
  }
  const actionEnd =
    (inputLabel && inputLabel.start > decisive.start ? inputLabel.start : terminator?.start) ?? body.length;
  const action = parseAction(sectionText(body, decisive, actionEnd), toolNames);
  let input: Input | undefined;
  if (inputLabel) {
    input = parseInput(sectionText(body, inputLabel, inputEnd));
    if (typeof input === 'object' && Object.keys(input).length === 0 && action.inline !== undefined) {
      input = action.inline;
    }
  }
  input ??= action.inline ?? {};

  if (!action.tool) {
    if (terminator?.kind === 'final') return finalStep(body, terminator, thought);
    return invalid(thought, 'Action has no tool name');
  }
  if (isFinalAnswerName(action.tool, toolNames)) {
    const answer = inputAsAnswer(input);
    if (answer) return { kind: 'final', thought, answer };
    if (terminator?.kind === 'final') return finalStep(body, terminator, thought);
    return invalid(thought, 'Final Answer is empty');
  }
  return { kind: 'action', thought, tool: action.tool, input };
}

/** For streaming: index in `text` where the final answer's text begins, or -1 if the text so far does not (yet) contain a Final Answer marker that is not preceded by an Action. */
export function finalAnswerStart(text: string): number {
  const { text: body } = maskThinking(text);
  for (const label of scanLabels(body)) {
    if (label.kind === 'action') return -1;
    if (label.kind !== 'final') continue;
    let p = label.contentStart;
    while (p < body.length && isBlank(body[p])) p++;
    if (p >= body.length) return -1;
    // `**Final Answer:*` — the rest of the bold closer has not arrived yet.
    if (label.open && label.contentStart === p && label.open.startsWith(body.slice(p))) return -1;
    return p;
  }
  return -1;
}
