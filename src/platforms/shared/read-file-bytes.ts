import { formatBytes } from '../../core/input/prepare-input.js';
import type { Attachment } from '../../core/input/types.js';
import type { Logger } from '../../core/logger.js';
import { type DocumentFormat, documentFormat, isBinaryDocument } from '../../documents/document-formats.js';
import { documentAsText } from '../../documents/extract-document.js';
import { htmlText } from '../../documents/html-text.js';
import { classifyFile } from './file-kinds.js';
import { type DocumentLimits, readDocument } from './read-document.js';

/** Largest image sent to a vision model. */
export const IMAGE_MAX_BYTES = 5_000_000;

/** How a file is read: as text, an image, a PDF or Office document (within `documents`), or not at all. */
export interface FileReading {
  kind: 'text' | 'image' | 'document' | 'other';
  /** The media type the file is named by (the name's extension decides when the given one is vague). */
  mediaType: string;
  format: DocumentFormat | undefined;
  documents: DocumentLimits | undefined;
}

/** A file named `name` of `mediaType`: how it is read. PDF and Office files without `documents` are binary. */
export function fileReading(
  name: string,
  mediaType: string | undefined,
  documents: DocumentLimits | undefined,
): FileReading {
  const classified = classifyFile(name, mediaType);
  const format = documentFormat(name, mediaType);
  const binary = format !== undefined && isBinaryDocument(format);
  const kind = binary && documents ? 'document' : classified.kind;
  return { kind, mediaType: classified.mediaType, format, documents: binary ? documents : undefined };
}

/** Why a file of `size` bytes is not read at all, before any byte of it is: its type or its size. */
export function sizeRefusal(reading: FileReading, size: number): string | undefined {
  if (reading.kind === 'other') return 'binary or unknown type, not read';
  if (reading.documents && size > reading.documents.maxBytes) return documentsOver(reading.documents);
  if (reading.kind === 'image' && size > IMAGE_MAX_BYTES) return 'images over 5 MB are not read';
  return undefined;
}

/** Bytes of the file read at most: past them an image or document is skipped, a text file cut. */
export function byteCap(reading: FileReading, textMaxBytes: number): number {
  if (reading.kind === 'image') return IMAGE_MAX_BYTES;
  return reading.documents ? reading.documents.maxBytes : textMaxBytes;
}

/**
 * The file's bytes (at most {@link byteCap}; `cut` when there were more) as what the model is shown: an
 * image, a document's text, a text file's text (a web page's without its markup), or skipped with a note.
 */
export async function fromBytes(
  base: { name: string; mediaType: string; size: number },
  reading: FileReading,
  bytes: Buffer,
  cut: boolean,
  logger?: Logger,
): Promise<Attachment> {
  const skip = (note: string): Attachment => ({ ...base, kind: 'skipped', note });
  if (reading.kind === 'other') return skip('binary or unknown type, not read');
  if (reading.kind === 'image') {
    if (cut) return skip('images over 5 MB are not read');
    return { ...base, kind: 'image', data: bytes.toString('base64') };
  }
  if (reading.documents) {
    if (cut) return skip(documentsOver(reading.documents));
    return readDocument(base, bytes, reading.documents, logger);
  }
  if (bytes.subarray(0, 8192).includes(0)) return skip('binary content, not read');
  const decoded = new TextDecoder('utf-8').decode(bytes).replace(/\uFFFD$/, '');
  const text = reading.format === 'html' ? documentAsText(htmlText(decoded, decoded.length)) : decoded;
  return { ...base, kind: 'text', text, ...(cut ? { cutAtBytes: bytes.length } : {}) };
}

/** Caps of reading a file already in hand (uploaded, or on this machine). */
export interface FileLimits {
  /** ATTACHMENT_MAX_BYTES: a text file is cut here. */
  maxBytes: number;
  /** PDF and Office files: read to text within these; without them they are skipped as binary. */
  documents?: DocumentLimits | undefined;
  logger?: Logger | undefined;
}

/**
 * A file already in hand as an attachment, with the caps and notes of a downloaded one (see
 * downloadAttachment): never throws.
 */
export function readFileBytes(
  file: { name: string; mediaType?: string | undefined },
  bytes: Uint8Array,
  limits: FileLimits,
): Promise<Attachment> {
  const reading = fileReading(file.name, file.mediaType, limits.documents);
  const base = { name: file.name, mediaType: reading.mediaType, size: bytes.length };
  const refused = sizeRefusal(reading, bytes.length);
  if (refused) return Promise.resolve({ ...base, kind: 'skipped', note: refused });
  const cap = byteCap(reading, limits.maxBytes);
  const held = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, cap));
  return fromBytes(base, reading, held, bytes.length > cap, limits.logger);
}

/** The note of a document over DOCUMENT_MAX_BYTES. */
function documentsOver(documents: DocumentLimits): string {
  return `documents over ${formatBytes(documents.maxBytes)} are not read`;
}
