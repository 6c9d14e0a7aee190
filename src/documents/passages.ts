import type { DocumentSection } from './document-types.js';

/** Characters in one passage at most: a few paragraphs, enough to cite, small enough to rank. */
export const PASSAGE_MAX_CHARS = 1200;

/**
 * A document's sections cut into passages of at most `maxChars`, at paragraph (else line, else sentence,
 * else word) boundaries; each keeps its section's heading or page, so it can be cited.
 */
export function toPassages(
  sections: readonly DocumentSection[],
  maxChars = PASSAGE_MAX_CHARS,
): DocumentSection[] {
  const passages: DocumentSection[] = [];
  for (const section of sections) {
    const where = {
      ...(section.heading ? { heading: section.heading } : {}),
      ...(section.page ? { page: section.page } : {}),
    };
    let current = '';
    const flush = () => {
      if (current.trim()) passages.push({ ...where, text: current.trim() });
      current = '';
    };
    for (const piece of pieces(section.text, maxChars)) {
      if (current && current.length + piece.length + 2 > maxChars) flush();
      current = current ? `${current}\n\n${piece}` : piece;
    }
    flush();
  }
  return passages;
}

/** The text in pieces no longer than `max`: paragraphs, or their lines, or runs of whole sentences. */
function pieces(text: string, max: number): string[] {
  return text.split(/\n\s*\n/).flatMap((paragraph) => {
    if (paragraph.length <= max) return [paragraph];
    return paragraph.split('\n').flatMap((line) => (line.length <= max ? [line] : runs(line, max)));
  });
}

/**
 * A long line in runs no longer than `max`: whole sentences where they fit (a fact stays in one passage,
 * with its subject and its value), a sentence longer than `max` by words.
 */
function runs(line: string, max: number): string[] {
  const out: string[] = [];
  let run = '';
  const add = (unit: string) => {
    if (run && run.length + unit.length + 1 > max) {
      out.push(run);
      run = '';
    }
    // Chinese and Japanese sentences follow each other without a space.
    run = run ? `${run}${/[。！？]$/.test(run) ? '' : ' '}${unit}` : unit;
  };
  for (const sentence of line.split(/(?<=[.!?])\s+|(?<=[。！？])/)) {
    if (!sentence.trim()) continue;
    if (sentence.length <= max) add(sentence.trim());
    else for (const word of sentence.split(' ')) if (word) add(word.slice(0, max));
  }
  if (run) out.push(run);
  return out;
}
