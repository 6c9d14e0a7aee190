/** One part of a document: a page, a slide, a sheet or the text under a heading. */
export interface DocumentSection {
  /** The heading the text is under (`Rotation`, `Sheet Budget`, `Slide 3`), when the format has one. */
  heading?: string | undefined;
  /** The page the text is on (PDF), counting from 1. */
  page?: number | undefined;
  text: string;
}

/** A document's text, in order, and whether it stopped short of the end. */
export interface ExtractedDocument {
  sections: DocumentSection[];
  /** Read up to the character cap, or the page cap: the rest of the document was not read. */
  truncated: boolean;
  /** Pages (PDF), slides (PPTX) or sheets (XLSX) the document has, when known. */
  parts?: number | undefined;
}

/** How much of a document is read. */
export interface ExtractLimits {
  /** Characters of text kept at most; reading stops there. */
  maxChars: number;
  /** Bytes an Office file (a zip) may unpack to, all parts together. */
  maxUnpackedBytes: number;
}

/** Why a document could not be read, in a few plain words for the asker ("it is encrypted"). */
export class DocumentError extends Error {
  override readonly name = 'DocumentError';
}
