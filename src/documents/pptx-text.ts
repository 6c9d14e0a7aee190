import type { ExtractedDocument, ExtractLimits } from './document-types.js';
import { decodeEntities } from './html-text.js';
import { byNumber, officeParts, xmlOf } from './office-zip.js';
import { textBudget } from './text-budget.js';

const SLIDE = /^ppt\/slides\/slide\d+\.xml$/;
const NOTES = /^ppt\/notesSlides\/notesSlide\d+\.xml$/;

/** The text runs (`<a:t>`) of a DrawingML part, one line per paragraph (`<a:p>`). */
function drawingText(xml: string): string {
  return xml
    .split(/<\/a:p>/)
    .map((paragraph) =>
      [...paragraph.matchAll(/<a:t(?:\s[^>]*)?>([^<]*)<\/a:t>/g)].map((m) => decodeEntities(m[1]!)).join(''),
    )
    .filter((line) => line.trim())
    .join('\n');
}

/** A PowerPoint file's text: one section per slide (`Slide 3`), its speaker notes after it. */
export function pptxText(bytes: Uint8Array, limits: ExtractLimits): ExtractedDocument {
  const parts = officeParts(bytes, (name) => SLIDE.test(name) || NOTES.test(name), limits.maxUnpackedBytes);
  const slides = [...parts.keys()].filter((n) => SLIDE.test(n)).sort(byNumber);
  const budget = textBudget(limits.maxChars);
  for (const [index, name] of slides.entries()) {
    const number = Number(/(\d+)\.xml$/.exec(name)?.[1] ?? index + 1);
    const notes = drawingText(xmlOf(parts.get(`ppt/notesSlides/notesSlide${number}.xml`)));
    const text = [drawingText(xmlOf(parts.get(name))), notes ? `Notes: ${notes}` : '']
      .filter(Boolean)
      .join('\n');
    if (!budget.add({ heading: `Slide ${index + 1}`, text })) break;
  }
  return budget.done(slides.length);
}
