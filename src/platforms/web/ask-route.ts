import type { Assistant } from '../../core/assistant.js';
import type { Attachment } from '../../core/input/types.js';
import type { Logger } from '../../core/logger.js';
import type { WebChatStore } from '../../core/ports/web-chat-store.js';
import { type ChannelKnowledge, sharedInto } from '../../knowledge/channel-knowledge.js';
import type { HttpRoutes } from '../../server/http-server.js';
import type { DocumentLimits } from '../shared/read-document.js';
import { IMAGE_MAX_BYTES, readFileBytes } from '../shared/read-file-bytes.js';
import { WORDING } from '../shared/wording.js';
import type { WorkTracker } from '../shared/work-tracker.js';
import { type AskBody, readAskBody } from './ask-body.js';
import type { ChatSessions } from './chat-sessions.js';
import { runCommand } from './commands.js';
import { chatKey } from './identity.js';
import { reply } from './replies.js';
import { startRun } from './start-run.js';
import type { Api } from './web-api.js';
import type { Visitor } from './web-gate.js';

/** What a file sent with a question is read within. */
export interface UploadLimits {
  /** ATTACHMENT_MAX_BYTES: a text file is cut here. */
  maxBytes: number;
  /** DOCUMENT_MAX_BYTES and the text caps of PDF and Office files. */
  documents: DocumentLimits;
}

/** The largest file the page may send: a document or an image at most (a longer text file is cut). */
export function uploadMaxBytes(limits: UploadLimits): number {
  return Math.max(limits.documents.maxBytes, IMAGE_MAX_BYTES, limits.maxBytes);
}

/** What `/api/ask` needs. */
export interface AskRouteDeps {
  assistant: Assistant;
  sessions: ChatSessions;
  work: WorkTracker;
  logger: Logger;
  chats?: WebChatStore | undefined;
  /** Where a file sent in a chat is kept for that chat's `search_knowledge`; unset: it is not kept. */
  knowledge?: ChannelKnowledge | undefined;
  uploads: UploadLimits;
  /** Whether the adapter is stopping (no new question is taken). */
  stopping(): boolean;
}

/**
 * Mounts `POST /api/ask`: a command is answered at once; a question (with a file, as multipart/form-data)
 * starts a run (202). The file is read as on Slack and Discord (see readFileBytes), quoted to the model, and
 * joins this chat's knowledge as shared by the asker.
 */
export function mountAskRoute(http: HttpRoutes, api: Api, deps: AskRouteDeps): void {
  const { assistant, sessions, logger, chats } = deps;
  const maxFileBytes = uploadMaxBytes(deps.uploads);
  http.mount(
    'POST',
    '/api/ask',
    api(async (req, res, { visitor }) => {
      const body = await readAskBody(req, maxFileBytes);
      if (!body.ok) return reply(res, body.status, { error: body.error });
      const { text, file } = body.value;
      const key = chatKey(visitor.chat);
      const { asker } = visitor;
      const command = await runCommand(text, { assistant, asker, key, logger, chats, name: visitor.name });
      const session = sessions.get(key);
      if (command) {
        // The file would be lost: a command reads none.
        if (file) return reply(res, 400, { error: 'Commands take no file; send it with a question.' });
        if (command.cleared && !session.stop) session.run = undefined;
        return reply(res, 200, command);
      }
      if (deps.stopping()) return reply(res, 503, { error: WORDING.shuttingDown });
      if (session.stop) return reply(res, 409, { error: 'Still answering; wait for the answer or stop it.' });
      const run = startRun(session, text || WORDING.filesOnly, asker, {
        assistant,
        work: deps.work,
        logger,
        chats,
        ...(file ? { files: [file.name], attachments: attachmentsOf(file, key, visitor, deps) } : {}),
      });
      reply(res, 202, { id: run.id });
    }),
  );
}

/** The file read (in the run's turn), then kept in the chat's knowledge with the asker as its sharer. */
function attachmentsOf(
  file: NonNullable<AskBody['file']>,
  key: string,
  visitor: Visitor,
  deps: AskRouteDeps,
): Promise<Attachment[]> {
  const read = readFileBytes(file, file.bytes, { ...deps.uploads, logger: deps.logger }).then((a) => [a]);
  // A web chat has no threads: its conversation key is its settings key, the scope of its knowledge.
  return sharedInto(deps.knowledge, { scope: key, sharedBy: visitor.asker.principal }, read);
}
