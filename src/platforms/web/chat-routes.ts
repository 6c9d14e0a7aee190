import type { ServerResponse } from 'node:http';
import { z } from 'zod';
import type { Assistant } from '../../core/assistant.js';
import type { Logger } from '../../core/logger.js';
import type { WebChatStore } from '../../core/ports/web-chat-store.js';
import type { HttpRoutes } from '../../server/http-server.js';
import { WORDING } from '../shared/wording.js';
import { chatTitle, MAX_LISTED_CHATS } from './chat-history.js';
import type { ChatSessions } from './chat-sessions.js';
import { chatKey, chatOfKey, type Identities } from './identity.js';
import { reply } from './replies.js';
import { readJson } from './request-body.js';
import type { Api } from './web-api.js';
import type { Visitor } from './web-gate.js';

const chatBody = z.object({ id: z.string().min(1).max(100) });
const renameBody = chatBody.extend({ title: z.string().trim().min(1, 'empty title').max(200) });

/** What the chat list's routes need. */
export interface ChatRoutesDeps {
  /** Where conversations are kept; without it the list is empty and changes answer 404. */
  chats?: WebChatStore | undefined;
  identities: Identities;
  sessions: ChatSessions;
  assistant: Assistant;
  logger: Logger;
}

/** Mounts the visitor's conversations: listed, reopened, renamed and deleted, only ever their own. */
export function mountChatRoutes(http: HttpRoutes, api: Api, deps: ChatRoutesDeps): void {
  const { chats, identities, sessions, assistant, logger } = deps;
  http.mount(
    'GET',
    '/api/chats',
    api(async (_req, res, { visitor }) => {
      if (!chats) return reply(res, 200, { chats: [], current: visitor.chat, kept: false });
      try {
        const listed = await chats.listWebChats(visitor.owner, MAX_LISTED_CHATS);
        reply(res, 200, {
          chats: listed.map((c) => ({ id: chatOfKey(c.key), title: c.title, updatedAt: c.updatedAt })),
          current: visitor.chat,
          kept: true,
        });
      } catch (err) {
        logger.error({ err }, 'could not list web chats');
        reply(res, 503, { error: 'Could not read the list of chats; try again.' });
      }
    }),
  );

  /** A change to one of the visitor's chats: 404 when it is not theirs (or there is no such chat). */
  const chatChange = <V extends { id: string }>(
    body: z.ZodType<V>,
    change: (visitor: Visitor, key: string, value: V, res: ServerResponse) => Promise<boolean>,
  ) =>
    api(async (req, res, { visitor }) => {
      const read = await readJson(req, body);
      if (!read.ok) return reply(res, read.status, { error: read.error });
      if (!chats) return reply(res, 404, { error: 'Chats are not kept here.' });
      const key = chatKey(read.value.id);
      try {
        if (!(await chats.webChat(visitor.owner, key))) return reply(res, 404, { error: 'No such chat.' });
        if (!(await change(visitor, key, read.value, res)))
          return reply(res, 404, { error: 'No such chat.' });
        reply(res, 204);
      } catch (err) {
        logger.error({ err, key }, 'a web chat change failed');
        reply(res, 503, { error: WORDING.commandFailed });
      }
    });

  http.mount(
    'POST',
    '/api/chats/open',
    chatChange(chatBody, async (visitor, _key, { id }, res) => {
      res.appendHeader('set-cookie', identities.openChat(visitor.owner, id));
      return true;
    }),
  );

  http.mount(
    'POST',
    '/api/chats/rename',
    chatChange(renameBody, (visitor, key, { title }) =>
      chats!.renameWebChat(visitor.owner, key, chatTitle(title)),
    ),
  );

  http.mount(
    'POST',
    '/api/chats/delete',
    chatChange(chatBody, async (visitor, key, { id }, res) => {
      const session = sessions.get(key);
      if (session.stop) return false;
      // Deleting a chat forgets it: its memory (turns, archive, notes) goes with its kept answers.
      await assistant.reset(key);
      const deleted = await chats!.deleteWebChat(visitor.owner, key);
      session.run = undefined;
      if (id === visitor.chat) res.appendHeader('set-cookie', identities.newChat(visitor.owner));
      return deleted;
    }),
  );
}
