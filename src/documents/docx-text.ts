import mammoth from 'mammoth';
import { DocumentError, type ExtractedDocument, type ExtractLimits } from './document-types.js';
import { htmlText } from './html-text.js';
import { checkOfficeZip } from './office-zip.js';

/** A Word file's text (mammoth), in sections by its headings; the zip's unpacked size is checked first. */
export async function docxText(bytes: Uint8Array, limits: ExtractLimits): Promise<ExtractedDocument> {
  checkOfficeZip(bytes, limits.maxUnpackedBytes);
  let html: string;
  try {
    html = (await mammoth.convertToHtml({ buffer: Buffer.from(bytes) })).value;
  } catch {
    throw new DocumentError('it is damaged or not a valid Word file');
  }
  return htmlText(html, limits.maxChars);
}
