import { type DocumentFormat, documentFormat } from './document-formats.js';
import { DocumentError, type ExtractedDocument, type ExtractLimits } from './document-types.js';
import { docxText } from './docx-text.js';
import { htmlText } from './html-text.js';
import { markdownText, plainText } from './markdown-text.js';
import { pdfText } from './pdf-text.js';
import { pptxText } from './pptx-text.js';
import { xlsxText } from './xlsx-text.js';

/** Decodes UTF-8 text, refusing binary content. */
function utf8(bytes: Uint8Array): string {
  if (bytes.subarray(0, 8192).includes(0)) throw new DocumentError('it is binary, not text');
  return new TextDecoder('utf-8').decode(bytes);
}

/** Reads one format. */
function read(
  format: DocumentFormat,
  bytes: Uint8Array,
  limits: ExtractLimits,
): Promise<ExtractedDocument> | ExtractedDocument {
  switch (format) {
    case 'pdf':
      return pdfText(bytes, limits);
    case 'docx':
      return docxText(bytes, limits);
    case 'pptx':
      return pptxText(bytes, limits);
    case 'xlsx':
      return xlsxText(bytes, limits);
    case 'html':
      return htmlText(utf8(bytes), limits.maxChars);
    case 'markdown':
      return markdownText(utf8(bytes), limits.maxChars);
    case 'text':
      return plainText(utf8(bytes), limits.maxChars);
  }
}

/**
 * The text of a document (PDF, Word, PowerPoint, Excel, HTML, Markdown or plain text) in sections, within
 * `limits`. Rejects with a DocumentError whose message says why in a few words (encrypted, damaged, too big
 * unpacked, an unknown format).
 */
export async function extractDocument(
  name: string,
  mediaType: string | undefined,
  bytes: Uint8Array,
  limits: ExtractLimits,
): Promise<ExtractedDocument> {
  const format = documentFormat(name, mediaType);
  if (!format) throw new DocumentError('its format is not one the bot reads');
  return read(format, bytes, limits);
}

/** A document as one text: each section under its heading or page marker. */
export function documentAsText(document: ExtractedDocument): string {
  return document.sections
    .map((s) => {
      const mark = s.page !== undefined ? `[page ${s.page}]` : s.heading ? `## ${s.heading}` : '';
      return mark ? `${mark}\n${s.text}` : s.text;
    })
    .join('\n\n');
}
