/**
 * Which tool a model means: names come wrapped in markdown, namespaced (`functions.calculator`), re-cased,
 * re-spaced, or mentioned in a sentence.
 */

const LEAD_WRAP = '`\'"*[<(';
const TRAIL_WRAP = '`\'"*]>.,;:!?';

/** Strips wrappers a model puts around a name: backticks, quotes, asterisks, brackets, trailing punctuation, `()`. */
export function cleanName(s: string): string {
  let t = s.trim();
  // Bounded: wrappers nest only a few deep (`**\`calculator()\`**`).
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
export function matchTool(name: string, toolNames: readonly string[]): string | undefined {
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

/** The tools a line names as words ("I will use the calculator tool"; "one of [calculator, web_search]"). */
export function toolWords(line: string, toolNames: readonly string[]): Set<string> {
  const found = new Set<string>();
  for (const word of line.slice(0, 300).split(/[^\p{L}\p{N}_.-]+/u)) {
    const hit = matchTool(word, toolNames);
    if (hit) found.add(hit);
  }
  return found;
}

/** The one tool mentioned as a word in a sentence ("I will use the calculator tool"), if exactly one is. */
export function findToolWord(line: string, toolNames: readonly string[]): string | undefined {
  const found = toolWords(line, toolNames);
  return found.size === 1 ? [...found][0] : undefined;
}

const FINAL_KEYS = new Set(['finalanswer', '最终答案', 'finish']);

/** Whether an Action names "Final Answer" or the ReAct paper's `Finish` (and no real tool of that name exists). */
export function isFinalAnswerName(name: string, toolNames: readonly string[]): boolean {
  return FINAL_KEYS.has(nameKey(name)) && !matchTool(name, toolNames);
}

const NAME_CHAR_RE = /[\p{L}\p{N}_]/u;

/**
 * The longest entry of `toolNames` that `s` starts with (after wrappers and markdown escapes), and the text
 * after it: how a name holding spaces or separators (`Gmail: Find Email`, `Read a file's content`) is read
 * before the line is split at a separator. Only such names unless `all` is set.
 */
export function leadingTool(
  s: string,
  toolNames: readonly string[],
  all = false,
): { tool: string; rest: string } | undefined {
  const plain = s
    .slice(0, 400)
    .replace(/\\([_*])/g, '$1')
    .replace(/^[\s`'"*<[]+/, '');
  const lower = plain.toLowerCase();
  let best: string | undefined;
  for (const name of toolNames) {
    if (!all && /^[\p{L}\p{N}_][\p{L}\p{N}_./-]*$/u.test(name)) continue;
    if (best && best.length >= name.length) continue;
    if (lower.startsWith(name.toLowerCase()) && !NAME_CHAR_RE.test(plain[name.length] ?? '')) best = name;
  }
  return best === undefined ? undefined : { tool: best, rest: plain.slice(best.length) + s.slice(400) };
}
