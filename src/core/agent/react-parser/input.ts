/**
 * Tool inputs as models actually write them: JSON (often malformed), quoted strings, fenced blocks, call
 * arguments, or plain text, sometimes followed by an Observation the model made up itself.
 */
import { parseKeywordArgs, parseLiteral, parseObject, stringEnd } from './literal.js';
import { dropDanglingFence, fenceAt, stripFence } from './section.js';

/** A tool's input: an object when one could be read, else the raw text. */
export type ToolInput = Record<string, unknown> | string;

/** Removes a made-up observation that follows a raw input on the same line or the next. */
function cutObservation(s: string): string {
  const i = s.search(/(?:^|\s)Observation[ \t]{0,3}[:：]/);
  let out = i < 0 ? s : s.slice(0, i);
  out = out.trimEnd();
  // The stop word of the older ReAct prompts.
  if (out.endsWith('\nPAUSE')) out = out.slice(0, -6).trimEnd();
  return out;
}

/** Drops a last line that is the start of `Observation:`, left when a server cuts at the stop word part-way. */
function dropPartialStop(s: string): string {
  const nl = s.lastIndexOf('\n');
  const last = s.slice(nl + 1).trim();
  return nl >= 0 && last.length >= 3 && 'Observation:'.startsWith(last) ? s.slice(0, nl).trimEnd() : s;
}

const EMPTY_INPUT_RE = /^(?:none|null|nil|n\/?a|nothing|no input|empty|\{\s{0,8}\}|\(\s{0,8}\))$/i;

/** Interprets a tool input: a JSON(-ish) object, a quoted string, or else the raw text; empty → {}. */
export function parseInput(raw: string): ToolInput {
  let s = dropPartialStop(raw.trim());
  if (fenceAt(s)) s = stripFence(s).trim();
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
        // A JSON object sent as a string (`"{\"expression\": \"2+2\"}"`) still means the object.
        const inner = lit.value.trim();
        return (inner.startsWith('{') ? parseObject(inner) : undefined) ?? lit.value;
      }
    }
  }
  const out = dropDanglingFence(cutObservation(s));
  return out ? out : {};
}

/** Interprets the text between the parentheses of `tool(...)`. */
export function parseCallArgs(inner: string): ToolInput {
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
