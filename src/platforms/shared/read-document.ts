import type { Attachment } from '../../core/input/types.js';
import type { Logger } from '../../core/logger.js';
import { DocumentError } from '../../documents/document-types.js';
import { documentAsText, extractDocument } from '../../documents/extract-document.js';

/** How much of an attached document is read: DOCUMENT_MAX_BYTES downloaded, text to a cap, unpacked zips to a cap. */
export interface DocumentLimits {
  /** DOCUMENT_MAX_BYTES: a larger PDF or Office file is named and skipped. */
  maxBytes: number;
  /** Characters of text kept (more than the model is shown: ATTACHMENT_MAX_TOKENS cuts it with a marker). */
  maxChars: number;
  /** Bytes an Office file may unpack to. */
  maxUnpackedBytes: number;
}

/** Characters kept per token of ATTACHMENT_MAX_TOKENS: enough that the token cut, not this one, is what shows. */
const CHARS_PER_TOKEN = 6;

/** The document limits for ATTACHMENT_MAX_TOKENS and DOCUMENT_MAX_BYTES. */
export function documentLimits(attachmentMaxTokens: number, documentMaxBytes: number): DocumentLimits {
  return {
    maxBytes: documentMaxBytes,
    maxChars: attachmentMaxTokens * CHARS_PER_TOKEN,
    maxUnpackedBytes: Math.max(50_000_000, documentMaxBytes * 5),
  };
}

/**
 * A downloaded document as a text attachment (its pages, slides, sheets or headings marked), or skipped with
 * the reason in plain words (encrypted, damaged, too big unpacked). Never throws.
 */
export async function readDocument(
  base: { name: string; mediaType: string; size: number },
  bytes: Uint8Array,
  limits: DocumentLimits,
  logger?: Logger,
): Promise<Attachment> {
  try {
    const document = await extractDocument(base.name, base.mediaType, bytes, limits);
    const text = documentAsText(document);
    if (!text.trim()) return { ...base, kind: 'skipped', note: 'it has no text to read (a scan?)' };
    const of = document.parts !== undefined ? ` of ${document.parts}` : '';
    const last = document.sections.at(-1);
    const where =
      last?.page !== undefined ? `page ${last.page}${of}` : (last?.heading ?? 'the character cap');
    return {
      ...base,
      kind: 'text',
      sections: document.sections,
      text: document.truncated ? `${text}\n\n[… the rest was not read: it stops at ${where}]` : text,
    };
  } catch (err) {
    if (err instanceof DocumentError) return { ...base, kind: 'skipped', note: err.message };
    logger?.warn({ file: base.name, err: String(err) }, 'could not read an attached document');
    return { ...base, kind: 'skipped', note: 'it could not be read' };
  }
}
