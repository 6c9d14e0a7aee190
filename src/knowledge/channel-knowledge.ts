import type { Attachment } from '../core/input/types.js';
import type { Logger } from '../core/logger.js';
import type { KnowledgeStore } from '../core/ports/knowledge-store.js';
import { documentFormat } from '../documents/document-formats.js';
import { markdownText, plainText } from '../documents/markdown-text.js';
import { toPassages } from '../documents/passages.js';

/** Files read in a channel join that channel's knowledge: `search_knowledge` there finds them later. */
export interface ChannelKnowledge {
  /** Keeps the readable attachments under the channel's settings key, as shared by `sharedBy`; never throws. */
  share(place: { scope: string; sharedBy: string }, attachments: readonly Attachment[]): Promise<void>;
}

/** Characters of one shared file kept at most. */
const SHARED_MAX_CHARS = 2_000_000;

/** Channel knowledge over the store. */
export function createChannelKnowledge(deps: {
  store: Pick<KnowledgeStore, 'putKnowledgeFile'>;
  logger: Logger;
  now?: () => number;
}): ChannelKnowledge {
  const now = deps.now ?? Date.now;
  return {
    async share(place, attachments) {
      for (const file of attachments) {
        if (file.kind !== 'text') continue;
        const sections =
          file.sections ??
          (documentFormat(file.name, file.mediaType) === 'markdown'
            ? markdownText(file.text, SHARED_MAX_CHARS).sections
            : plainText(file.text, SHARED_MAX_CHARS).sections);
        const passages = toPassages(sections);
        if (passages.length === 0) continue;
        const at = now();
        await deps.store
          .putKnowledgeFile(
            {
              scope: place.scope,
              path: file.name,
              size: file.size,
              modifiedAt: at,
              indexedAt: at,
              passages: passages.length,
              sharedBy: place.sharedBy,
            },
            passages,
          )
          .catch((err: unknown) =>
            deps.logger.warn({ err, file: file.name }, 'could not keep a shared file'),
          );
      }
    },
  };
}

/** The attachments, once downloaded, shared into the channel's knowledge first (when there is any). */
export function sharedInto(
  knowledge: ChannelKnowledge | undefined,
  place: { scope: string; sharedBy: string },
  attachments: Promise<Attachment[]>,
): Promise<Attachment[]> {
  if (!knowledge) return attachments;
  return attachments.then(async (read) => {
    await knowledge.share(place, read);
    return read;
  });
}
