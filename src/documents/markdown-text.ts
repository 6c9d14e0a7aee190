import type { ExtractedDocument } from './document-types.js';
import { textBudget } from './text-budget.js';

/** A Markdown file's text in sections, one per ATX heading (`# …` to `###### …`) outside code fences. */
export function markdownText(markdown: string, maxChars: number): ExtractedDocument {
  const budget = textBudget(maxChars);
  let heading: string | undefined;
  let lines: string[] = [];
  let fence: string | undefined;
  const flush = () => {
    const ok = budget.add({ heading, text: lines.join('\n') });
    lines = [];
    return ok;
  };
  for (const line of markdown.split(/\r?\n/)) {
    const opens = /^\s{0,3}(```+|~~~+)/.exec(line)?.[1];
    if (opens && (!fence || opens.startsWith(fence))) fence = fence ? undefined : opens;
    const title = fence ? null : /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (title) {
      if (!flush()) return budget.done();
      heading = title[1] || heading;
      continue;
    }
    lines.push(line);
  }
  flush();
  return budget.done();
}

/** Plain text as one section. */
export function plainText(text: string, maxChars: number): ExtractedDocument {
  const budget = textBudget(maxChars);
  budget.add({ text });
  return budget.done();
}
