import { escapeHeaderLines, speakerName } from '../agent/speaker.js';
import type { ContentPart } from '../llm/types.js';
import { countTokens, truncateToTokens } from '../memory/tokens.js';
import { type Provenance, quote } from '../util/untrusted.js';
import type { Attachment, ContextMessage, InputSettings } from './types.js';

/** Under an answer to a question with an image, when the model cannot see images. */
export const NO_VISION_NOTE = 'I cannot see images with this model, so I answered from the text alone.';

/** What a question brings besides its text, ready for the prompt, the asker and memory. */
export interface PreparedInput {
  /** Thread context and attachments as text, shown before the question; undefined when there is none. */
  preface: string | undefined;
  /** Images to send with the question (vision models only). */
  images: Extract<ContentPart, { type: 'image' }>[];
  /** Short notes for under the answer (a file skipped, images unseen, the thread unreadable). */
  notes: string[];
  /** One line per attachment (name, type, size) for memory: never the content. */
  described: string[];
  /** What the preface quotes, for the reasoning thread: each thread message and file with who wrote it. */
  quoted: Provenance[];
}

/** What to prepare: the thread's earlier messages, the files, and a note when the thread could not be read. */
export interface InputParts {
  context?: readonly ContextMessage[] | undefined;
  attachments?: readonly Attachment[] | undefined;
  /** Why the thread could not be read, for the asker. */
  unreadable?: string | undefined;
  /** Files came with the question but could not be read at all. */
  filesUnreadable?: boolean | undefined;
}

/** Under an answer to a question whose files could not be read at all. */
export const FILES_UNREADABLE_NOTE = 'I could not read the attached files.';

/** Formats thread context and attachments within the budgets of `settings`. */
export function prepareInput(parts: InputParts, settings: InputSettings): PreparedInput {
  const sections: string[] = [];
  const notes: string[] = [];
  const images: PreparedInput['images'] = [];
  const quoted: Provenance[] = [];
  if (parts.unreadable) {
    notes.push(parts.unreadable);
    sections.push('(The earlier messages of this conversation could not be read; only this one is shown.)');
  }
  const context = formatContext(parts.context ?? [], settings.CONTEXT_MAX_TOKENS, quoted);
  if (context) sections.push(context);
  let unseen = false;
  for (const file of parts.attachments ?? []) {
    const head = `Attached ${file.kind === 'image' ? 'image' : 'file'} "${file.name}" (${describeType(file)})`;
    switch (file.kind) {
      case 'text':
        sections.push(formatTextFile(head, file, settings.ATTACHMENT_MAX_TOKENS));
        quoted.push({ source: 'attachment', name: file.name });
        break;
      case 'image':
        if (settings.LLM_VISION) {
          images.push({ type: 'image', mediaType: file.mediaType, data: file.data });
          sections.push(`${head}: sent with this message.`);
        } else {
          unseen = true;
          sections.push(`${head}: not shown, because this model cannot see images.`);
        }
        break;
      case 'skipped':
        notes.push(`Skipped ${file.name}: ${file.note}.`);
        sections.push(`${head}: skipped (${file.note}).`);
        break;
    }
  }
  if (unseen) notes.push(NO_VISION_NOTE);
  if (parts.filesUnreadable) {
    notes.push(FILES_UNREADABLE_NOTE);
    sections.push('(Files were attached to this message but could not be read.)');
  }
  return {
    preface: sections.length > 0 ? sections.join('\n\n') : undefined,
    images,
    notes,
    described: (parts.attachments ?? []).map((file) => `(attached: ${file.name}, ${describeType(file)})`),
    quoted,
  };
}

/** The question as memory keeps it: its text and one line per attachment. */
export function rememberedQuestion(text: string, prepared: PreparedInput): string {
  return prepared.described.length > 0 ? `${text}\n${prepared.described.join('\n')}` : text;
}

/**
 * The earlier messages, oldest first, within `maxTokens`, each quoted with its author, time and source
 * (the thread, or the message replied to): the newest are kept, an older one that does not fit ends the
 * list (a newest one too long on its own is cut).
 */
function formatContext(
  messages: readonly ContextMessage[],
  maxTokens: number,
  quoted: Provenance[],
): string | undefined {
  const lines: string[] = [];
  const kept: Provenance[] = [];
  let used = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    const author = speakerName(message.author);
    const source = message.source ?? 'thread';
    const block = (text: string) =>
      quote(source, escapeHeaderLines(text), { author, at: formatTime(message.at) });
    const tokens = countTokens(block(message.text.trim()));
    if (used + tokens > maxTokens) {
      if (lines.length === 0) {
        lines.push(block(`${truncateToTokens(message.text.trim(), maxTokens)} …`));
        kept.push({ source, author });
      }
      break;
    }
    used += tokens;
    lines.push(block(message.text.trim()));
    kept.push({ source, author });
  }
  if (lines.length === 0) return undefined;
  quoted.push(...kept.reverse());
  const omitted = messages.length - lines.length;
  const heading =
    omitted > 0
      ? `Earlier messages in this conversation, oldest first (${omitted} older not shown):`
      : 'Earlier messages in this conversation, oldest first:';
  return [heading, ...lines.reverse()].join('\n');
}

function formatTextFile(
  head: string,
  file: Extract<Attachment, { kind: 'text' }>,
  maxTokens: number,
): string {
  const kept = truncateToTokens(file.text, maxTokens);
  const marks: string[] = [];
  if (kept.length < file.text.length) {
    marks.push(`[… cut here: the file is longer than the ${maxTokens.toLocaleString('en')} tokens shown]`);
  } else if (file.cutAtBytes !== undefined) {
    marks.push(`[… cut here: only the first ${file.cutAtBytes.toLocaleString('en')} bytes were read]`);
  }
  return [`${head}:`, quote('attachment', kept, { name: file.name }), ...marks].join('\n');
}

function describeType(file: Attachment): string {
  return `${file.mediaType}, ${formatBytes(file.size)}`;
}

/** `512 bytes`, `1.2 KB`, `3.4 MB`. */
export function formatBytes(n: number): string {
  if (n < 1000) return `${n} byte${n === 1 ? '' : 's'}`;
  if (n < 1_000_000) return `${(n / 1000).toFixed(1)} KB`;
  return `${(n / 1_000_000).toFixed(1)} MB`;
}

/** `2026-12-02 01:05 UTC`. */
function formatTime(at: Date): string {
  return Number.isNaN(at.getTime())
    ? 'unknown time'
    : `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
