import type { DocumentSection, ExtractedDocument } from './document-types.js';

/** Collects sections up to a character cap; past it the document is marked truncated and reading can stop. */
export interface TextBudget {
  /** Adds a section (cut at the cap); false once the cap is reached, so the reader stops. */
  add(section: DocumentSection): boolean;
  /** The document read so far. */
  done(parts?: number, truncated?: boolean): ExtractedDocument;
}

/** A budget of `maxChars` characters. */
export function textBudget(maxChars: number): TextBudget {
  const sections: DocumentSection[] = [];
  let used = 0;
  let full = false;
  return {
    add(section) {
      if (full) return false;
      const text = section.text
        .replace(/[ \t]+\n/g, '\n')
        .replace(/\n{3,}/g, '\n\n')
        .trim();
      if (!text) return true;
      const room = maxChars - used;
      if (text.length > room) {
        full = true;
        if (room > 0) sections.push({ ...section, text: text.slice(0, room) });
        used = maxChars;
        return false;
      }
      sections.push({ ...section, text });
      used += text.length;
      return true;
    },
    done(parts, truncated = false) {
      return { sections, truncated: full || truncated, ...(parts !== undefined ? { parts } : {}) };
    },
  };
}
