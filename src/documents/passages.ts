import type { DocumentSection } from './document-types.js';

/** Characters in one passage at most: a few paragraphs, enough to cite, small enough to rank. */
export const PASSAGE_MAX_CHARS = 1200;

/**
 * A document's sections cut into passages of at most `maxChars`, at paragraph (else line, else word)
 * boundaries; each keeps its section's heading or page, so it can be cited.
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

/** The text in pieces no longer than `max`: paragraphs, or their lines, or runs of words. */
function pieces(text: string, max: number): string[] {
  return text.split(/\n\s*\n/).flatMap((paragraph) => {
    if (paragraph.length <= max) return [paragraph];
    return paragraph.split('\n').flatMap((line) => {
      if (line.length <= max) return [line];
      const out: string[] = [];
      let run = '';
      for (const word of line.split(' ')) {
        if (run && run.length + word.length + 1 > max) {
          out.push(run);
          run = '';
        }
        run = run ? `${run} ${word}` : word.slice(0, max);
      }
      if (run) out.push(run);
      return out;
    });
  });
}
