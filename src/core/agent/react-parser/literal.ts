/**
 * Brackets, strings and loose JSON: models write tool inputs as JSON, JavaScript or Python literals, often
 * truncated or wrapped in prose, so these read what they can and give up (undefined) rather than guess.
 */

/** Whether `c` is a space, tab or line break. */
export function isBlank(c: string | undefined): boolean {
  return c === ' ' || c === '\t' || c === '\r' || c === '\n';
}

/** A letter or digit: an apostrophe right after one is part of a word (`Denmark's`, `couldn't`, `players'`). */
const WORD_CHAR_RE = /[\p{L}\p{N}]/u;

/** A Python string prefix (`f'…'`, `rb'…'`) ending right before a quote. */
const STRING_PREFIX_RE = /(?:^|[^\p{L}\p{N}_])[rRbBuUfF]{1,2}$/u;

/**
 * Whether the character at `i` opens a quoted string: a double quote, or a single quote that is not an
 * apostrophe inside or at the end of a word (one right after a string prefix such as `f` still opens).
 */
export function opensString(s: string, i: number): boolean {
  const c = s[i];
  if (c === '"') return true;
  if (c !== "'") return false;
  if (i === 0 || !WORD_CHAR_RE.test(s[i - 1]!)) return true;
  return STRING_PREFIX_RE.test(s.slice(Math.max(0, i - 3), i));
}

/** Whether the quote at `i` closes a string that `q` opened: an apostrophe between two letters does not. */
function closesString(s: string, i: number, q: string): boolean {
  if (s[i] !== q) return false;
  return q !== "'" || !(WORD_CHAR_RE.test(s[i - 1] ?? '') && WORD_CHAR_RE.test(s[i + 1] ?? ''));
}

/** End (exclusive) of the quoted string starting at `start`, or -1 when it is never closed. */
export function stringEnd(s: string, start: number): number {
  const q = s[start]!;
  for (let i = start + 1; i < s.length; i++) {
    if (s[i] === '\\') i++;
    else if (closesString(s, i, q)) return i + 1;
  }
  return -1;
}

const CLOSER: Record<string, string> = { '{': '}', '[': ']', '(': ')' };

/** An unclosed value also reports what would close it, so a truncated object can be completed. */
interface Balanced {
  /** End (exclusive) of the value, or -1 when it runs off the end. */
  end: number;
  /** The brackets still open at the end, as the closers that would close them. */
  closers: string;
  /** Whether the text ends inside a string. */
  inString: boolean;
}

/**
 * Finds the end of the bracketed value starting at `start`, skipping quoted strings (with `quotes`; without, a
 * quote is a character like any other, as in natural text).
 */
export function scanBalanced(s: string, start: number, quotes = true): Balanced {
  const stack: string[] = [];
  for (let i = start; i < s.length; i++) {
    const c = s[i]!;
    if (quotes && opensString(s, i)) {
      const end = stringEnd(s, i);
      if (end < 0) return { end: -1, closers: stack.reverse().join(''), inString: true };
      i = end - 1;
    } else if (c in CLOSER) stack.push(CLOSER[c]!);
    else if (c === '}' || c === ']' || c === ')') {
      stack.pop();
      if (stack.length === 0) return { end: i + 1, closers: '', inString: false };
    }
  }
  return { end: -1, closers: stack.reverse().join(''), inString: false };
}

/** `v` as a plain object, or undefined for arrays, null and primitives. */
export function asObject(v: unknown): Record<string, unknown> | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v)
    ? (v as Record<string, unknown>)
    : undefined;
}

function tryJson(s: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(s) as unknown };
  } catch {
    return undefined;
  }
}

/** Characters JSON allows after a backslash. */
const JSON_ESCAPES = '"\\/bfnrtu';

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
      for (; i < n && !closesString(s, i, c); i++) {
        const d = s[i]!;
        if (d === '\\' && i + 1 < n) {
          const e = s[++i]!;
          // `\'` is not a JSON escape; the quote needs none inside a double-quoted string. Other escapes JSON
          // does not allow (`\d` in a regex, `\(`) keep their backslash, as the model meant it.
          if (e === "'") str += "'";
          else if (JSON_ESCAPES.includes(e) && (e !== 'u' || /^[\da-f]{4}$/i.test(s.slice(i + 1, i + 5))))
            str += `\\${e}`;
          else str += `\\\\${e}`;
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
        // A bare word is only safe to quote where it is a key; anywhere else it is prose, not a literal.
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
export function parseLiteral(s: string): { value: unknown } | undefined {
  const strict = tryJson(s);
  if (strict) return strict;
  const repaired = repairJson(s);
  return repaired === undefined ? undefined : tryJson(repaired);
}

/** Parses the object that `s` starts with (`{`), ignoring trailing text and closing up to two missing brackets. */
export function parseObject(s: string): Record<string, unknown> | undefined {
  const b = scanBalanced(s, 0);
  let candidate: string;
  if (b.end >= 0) candidate = s.slice(0, b.end);
  else if (!b.inString && b.closers.length <= 2) candidate = s.trimEnd() + b.closers;
  else return undefined;
  const parsed = parseLiteral(candidate);
  return parsed ? asObject(parsed.value) : undefined;
}

/** Splits on commas that are outside strings and brackets. */
function splitTopLevel(s: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (opensString(s, i)) {
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
export function parseKeywordArgs(s: string): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const part of splitTopLevel(s)) {
    const eq = part.search(/[=:]/);
    // `==` is a comparison inside a positional argument, not a keyword.
    if (eq < 0 || part[eq + 1] === '=') return undefined;
    const key = part.slice(0, eq).trim();
    if (!/^[A-Za-z_]\w{0,63}$/.test(key)) return undefined;
    const value = parseLiteral(part.slice(eq + 1).trim());
    if (!value) return undefined;
    out[key] = value.value;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}
