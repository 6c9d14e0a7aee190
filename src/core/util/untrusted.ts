/**
 * Text someone other than the asker wrote (a thread's messages, a file, a note, a tool's result) reaches
 * the model as quoted data, never as an instruction: inside `<untrusted source="…" author="…">…</untrusted>`,
 * with any `<untrusted` or `</untrusted` of the text escaped so planted text cannot close the block. The
 * base prompt says once what these blocks are.
 */

/** Where quoted text came from. */
export type UntrustedSource =
  | 'thread'
  | 'reply'
  | 'history'
  | 'attachment'
  | 'note'
  | 'recall'
  | 'knowledge'
  | 'forwarded'
  | 'tool';

/** What a block says about its text besides the source: who wrote it, a file's name, a tool's name, when. */
export interface QuoteAttributes {
  author?: string | undefined;
  name?: string | undefined;
  tool?: string | undefined;
  at?: string | undefined;
}

/** What the model was handed as quoted data, for the reasoning thread's "read" step. */
export interface Provenance {
  source: UntrustedSource;
  author?: string | undefined;
  name?: string | undefined;
}

const TAG = /<(\/?)untrusted/gi;

/** `text` with every `<untrusted` and `</untrusted` escaped, so it cannot open or close a block. */
export function escapeUntrusted(text: string): string {
  return text.replace(TAG, '&lt;$1untrusted');
}

/** An attribute's value: one line, no quotes or angle brackets, at most 100 characters. */
function attribute(value: string): string {
  return value
    .replace(/[\u0000-\u001F\u007F-\u009F\u2028\u2029]+/g, ' ')
    .replace(/&/g, '&amp;')
    .replace(/"/g, '&quot;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .trim()
    .slice(0, 100);
}

/** `text` quoted as data from `source`, with the attributes that are known. */
export function quote(source: UntrustedSource, text: string, attrs: QuoteAttributes = {}): string {
  const named = (['author', 'name', 'tool', 'at'] as const)
    .filter((key) => attrs[key] !== undefined && attrs[key] !== '')
    .map((key) => ` ${key}="${attribute(attrs[key]!)}"`)
    .join('');
  return `<untrusted source="${source}"${named}>\n${escapeUntrusted(text)}\n</untrusted>`;
}
