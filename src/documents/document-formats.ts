/** The document formats read to text besides plain text files. */
export type DocumentFormat = 'pdf' | 'docx' | 'pptx' | 'xlsx' | 'html' | 'markdown' | 'text';

const BY_EXTENSION: Record<string, DocumentFormat> = {
  pdf: 'pdf',
  docx: 'docx',
  pptx: 'pptx',
  xlsx: 'xlsx',
  html: 'html',
  htm: 'html',
  md: 'markdown',
  markdown: 'markdown',
  txt: 'text',
  text: 'text',
};

const BY_MEDIA_TYPE: Record<string, DocumentFormat> = {
  'application/pdf': 'pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'pptx',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'text/html': 'html',
  'text/markdown': 'markdown',
};

/** The document format of a file by its name (first) or media type; undefined for anything else. */
export function documentFormat(name: string, mediaType?: string): DocumentFormat | undefined {
  const base = name.toLowerCase().split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  const byName = dot >= 0 ? BY_EXTENSION[base.slice(dot + 1)] : undefined;
  const type = mediaType?.split(';')[0]?.trim().toLowerCase();
  return byName ?? (type ? BY_MEDIA_TYPE[type] : undefined);
}

/** Formats that are binary containers (never read as UTF-8 text). */
export function isBinaryDocument(format: DocumentFormat): boolean {
  return format === 'pdf' || format === 'docx' || format === 'pptx' || format === 'xlsx';
}
