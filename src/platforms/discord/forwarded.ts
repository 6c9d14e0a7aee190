import { type Embed, type Message, MessageReferenceType } from 'discord.js';
import type { ContextMessage } from '../../core/input/types.js';
import type { RemoteFile } from '../shared/download-attachment.js';

/** A forwarded message as the bot reads it: its snapshot's text, embeds and files. */
export interface Forwarded {
  /** The text, the embeds' text and the files' names, as one quoted message. */
  context: ContextMessage;
  /** The files it carried, to download like the question's own. */
  files: RemoteFile[];
}

/**
 * What `message` forwards, or undefined when it forwards nothing: a forward has `message_reference.type` 1
 * (`FORWARD`) and the message in `message_snapshots` ("Currently we support only 1 snapshot"; `author` is
 * excluded, so who wrote it is unknown), while its own `content` is empty
 * (https://discord.com/developers/docs/resources/message#message-reference-content-attribution-forwards).
 * Its text reaches the model as quoted data (source `forwarded`), never as an instruction.
 */
export function forwardedOf(message: Message): Forwarded | undefined {
  if (message.reference?.type !== MessageReferenceType.Forward) return undefined;
  const snapshot = message.messageSnapshots.first();
  if (!snapshot) return undefined;
  const attachments = [...(snapshot.attachments?.values() ?? [])];
  const text = [
    snapshot.content ?? '',
    ...(snapshot.embeds ?? []).map(embedText),
    ...attachments.map((a) => `(attached: ${a.name})`),
  ]
    .map((part) => part.trim())
    .filter(Boolean)
    .join('\n');
  const at = snapshot.createdTimestamp ? new Date(snapshot.createdTimestamp) : message.createdAt;
  return {
    context: { author: '', at, text: text || '(nothing readable)', source: 'forwarded' },
    files: attachments.map((a) => ({
      name: a.name,
      mediaType: a.contentType ?? undefined,
      size: a.size,
      url: a.url,
    })),
  };
}

/** An embed's readable parts: author, title, link, description, fields, footer. */
function embedText(embed: Embed): string {
  return [
    embed.author?.name,
    embed.title,
    embed.url,
    embed.description,
    ...embed.fields.map((f) => `${f.name}: ${f.value}`),
    embed.footer?.text,
  ]
    .filter((part): part is string => Boolean(part?.trim()))
    .join('\n');
}
