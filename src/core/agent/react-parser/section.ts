/**
 * The text of a section: what follows a label, cleaned of the markdown a model wraps around it (code fences,
 * a bold marker that the label opened).
 */
import type { Label } from './labels.js';

const FENCE_LANG_RE =
  /^(?:json5?|jsonc|js|javascript|ts|typescript|python|py|text|txt|plaintext|yaml|sh|bash)[ \t]+/i;

const FENCES = ['```', "'''", '~~~'];

/** The fence (```, ''' or ~~~) that `s` starts with, or undefined. */
export function fenceAt(s: string): string | undefined {
  return FENCES.find((f) => s.startsWith(f));
}

/** The content of the code fence that `s` starts with (language tag dropped, text after the fence ignored). */
export function stripFence(s: string): string {
  const fence = fenceAt(s) ?? '```';
  const firstNl = s.indexOf('\n');
  if (firstNl < 0) {
    const inner = s.slice(3).replace(FENCE_LANG_RE, '');
    const close = inner.indexOf(fence);
    return close >= 0 ? inner.slice(0, close) : inner;
  }
  const body = s.slice(firstNl + 1);
  const close = body.startsWith(fence) ? 0 : body.indexOf(`\n${fence}`);
  return close < 0 ? body : body.slice(0, close);
}

/** Whether `line` opens or closes a code fence. */
export function isFenceLine(line: string): boolean {
  return line.trimStart().startsWith('```');
}

/** Drops an unpaired fence line at the end (or start) left by a reply wrapped whole in a code fence. */
export function dropDanglingFence(s: string): string {
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
export function sectionText(body: string, label: Label, end: number): string {
  let s = body.slice(label.contentStart, end);
  if (label.open) {
    const nl = s.indexOf('\n');
    const first = (nl < 0 ? s : s.slice(0, nl)).trimEnd();
    // An even count means the line pairs its own markers (`**Thought: a **b**`), so the last one is not ours.
    if (first.endsWith(label.open) && countOccurrences(first, label.open) % 2 === 1) {
      s = first.slice(0, -label.open.length) + (nl < 0 ? '' : s.slice(nl));
    }
  }
  return s.trim();
}

/** A prose section (Thought, Final Answer): its text without a fence line left over from a fenced reply. */
export function proseText(body: string, label: Label, end: number): string {
  return dropDanglingFence(sectionText(body, label, end));
}
