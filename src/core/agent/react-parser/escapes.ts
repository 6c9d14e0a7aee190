/**
 * Markdown escapes (`\_`, `\*`) a model writes because it formats its reply as Markdown. They are removed from
 * the input only when the reply escaped something outside the input too (the tool name, the thought): then
 * they are the Markdown's, not the input's own backslashes.
 */
import type { ToolInput } from './input.js';

/** A `\_` or `\*` next to a letter or digit: a Markdown escape inside a word (`house\_sales`). */
const EVIDENCE_RE = /[\p{L}\p{N}]\\[_*]|\\[_*][\p{L}\p{N}]/u;

/** Whether `text` (the reply outside the input) escapes Markdown. */
export function escapesMarkdown(text: string): boolean {
  return EVIDENCE_RE.test(text);
}

function dropEscapes(s: string): string {
  return s.replace(/\\([_*])/g, '$1');
}

function unescapeValue(v: unknown): unknown {
  if (typeof v === 'string') return dropEscapes(v);
  if (Array.isArray(v)) return v.map(unescapeValue);
  if (v !== null && typeof v === 'object') {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [dropEscapes(k), unescapeValue(x)]));
  }
  return v;
}

/** `input` with its Markdown escapes removed (keys and string values of an object included). */
export function unescapeInput(input: ToolInput): ToolInput {
  return unescapeValue(input) as ToolInput;
}
