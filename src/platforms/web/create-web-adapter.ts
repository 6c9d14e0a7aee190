import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { WORDING } from '../shared/wording.js';
import { createWorkTracker } from '../shared/work-tracker.js';
import type { PlatformAdapter, PlatformDeps } from '../types.js';
import { AUTH_COOKIE, createTokenGate } from './access-token.js';
import { webAsker } from './asker.js';
import { createChatSessions, MAX_CLIENTS_PER_CHAT } from './chat-sessions.js';
import { runCommand } from './commands.js';
import { conversationSnapshot } from './conversation.js';
import { cookie, readCookies } from './cookies.js';
import { openEventStream } from './event-stream.js';
import { CHAT_COOKIE, chatKey, type Identity, identify, newId } from './identity.js';
import { reply } from './replies.js';
import { readJson } from './request-body.js';
import { hostAllowed, sameOrigin } from './request-guard.js';
import { SECURITY_HEADERS } from './security-headers.js';
import { startRun } from './start-run.js';
import { mountStaticFiles } from './static-files.js';

/** The longest question the page sends. */
export const MAX_QUESTION_CHARS = 8000;
/** Conversations whose latest run is kept for reconnecting pages; idle ones beyond are forgotten. */
const MAX_SESSIONS = 1000;

const askBody = z.object({ text: z.string().trim().min(1, 'empty question').max(MAX_QUESTION_CHARS) });
const loginBody = z.object({ token: z.string().max(1000) });

/** The web chat adapter; `idle` serves tests. */
export interface WebAdapter extends PlatformAdapter {
  readonly name: 'web';
  /** Resolves once no run is in flight. */
  idle(): Promise<void>;
}

/** Options of {@link createWebAdapter}. */
export interface WebAdapterOptions {
  /** Where the page's address is announced at start (default: standard output). */
  announce?: (line: string) => void;
}

type Handler = (req: IncomingMessage, res: ServerResponse, who: Identity) => Promise<void> | void;

/**
 * The web chat on the shared HTTP server: the page at `/`, its files, and a small JSON API with
 * server-sent events. Each browser has an ID (limits and usage) and a current conversation (memory key
 * `web:<chat>`), both in HttpOnly cookies; with WEB_CHAT_TOKEN the page asks for the token first.
 */
export function createWebAdapter(deps: PlatformDeps, options: WebAdapterOptions = {}): WebAdapter {
  const { config, assistant, http } = deps;
  const logger = deps.logger.child({ platform: 'web' });
  const gate = createTokenGate(config.WEB_CHAT_TOKEN);
  const sessions = createChatSessions(MAX_SESSIONS);
  const work = createWorkTracker(logger);
  let started = false;
  let stopping = false;
  let stopped: Promise<void> | undefined;

  /** Common checks of every API request; `open` routes skip the token (they are how it is given). */
  const api = (handler: Handler, { open = false } = {}) => {
    return async (req: IncomingMessage, res: ServerResponse) => {
      if (!started) return reply(res, 503, { error: 'starting' });
      if (!hostAllowed(req, gate.required)) return reply(res, 403, { error: 'unknown host' });
      if (req.method === 'POST' && !sameOrigin(req)) return reply(res, 403, { error: 'cross-origin' });
      const cookies = readCookies(req);
      const who = identify(cookies);
      if (who.setCookies.length > 0) res.setHeader('set-cookie', who.setCookies);
      if (!open && !gate.admits(cookies.get(AUTH_COOKIE))) return reply(res, 401, { token: 'needed' });
      await handler(req, res, who);
    };
  };

  mountStaticFiles(http, (req) => hostAllowed(req, gate.required));

  http.mount(
    'GET',
    '/api/session',
    api((_req, res) => reply(res, 200, { ok: true })),
  );

  http.mount(
    'POST',
    '/api/login',
    api(
      async (req, res) => {
        const body = await readJson(req, loginBody);
        if (!body.ok) return reply(res, body.status, { error: body.error });
        if (!gate.required) return reply(res, 204);
        const proof = gate.check(body.value.token);
        if (!proof) {
          logger.info('a wrong web chat token was given');
          return reply(res, 401, { error: 'That token is not right.' });
        }
        res.appendHeader('set-cookie', cookie(AUTH_COOKIE, proof));
        reply(res, 204);
      },
      { open: true },
    ),
  );

  http.mount(
    'GET',
    '/api/events',
    api(async (req, res, who) => {
      if (stopping) return reply(res, 503, { error: WORDING.shuttingDown });
      const session = sessions.get(chatKey(who.chat));
      const stream = openEventStream(req, res, SECURITY_HEADERS);
      if (session.clients.size >= MAX_CLIENTS_PER_CHAT) session.clients.values().next().value?.close();
      session.clients.add(stream);
      stream.onClose(() => session.clients.delete(stream));
      try {
        stream.send('conversation', conversationSnapshot(await assistant.history(session.key), session.run));
      } catch (err) {
        logger.error({ err, key: session.key }, 'could not read a web conversation');
        stream.send('conversation', {
          turns: [],
          ...(session.run ? { run: session.run } : {}),
          problem: 'Could not read this chat’s memory; reload to try again.',
        });
      }
    }),
  );

  http.mount(
    'POST',
    '/api/ask',
    api(async (req, res, who) => {
      const body = await readJson(req, askBody);
      if (!body.ok) return reply(res, body.status, { error: body.error });
      const key = chatKey(who.chat);
      const asker = webAsker(who.browser);
      const command = await runCommand(body.value.text, { assistant, asker, key, logger });
      const session = sessions.get(key);
      if (command) {
        if (command.cleared && !session.stop) session.run = undefined;
        return reply(res, 200, command);
      }
      if (stopping) return reply(res, 503, { error: WORDING.shuttingDown });
      if (session.stop) return reply(res, 409, { error: 'Still answering; wait for the answer or stop it.' });
      const run = startRun(session, body.value.text, asker, { assistant, work, logger });
      reply(res, 202, { id: run.id });
    }),
  );

  http.mount(
    'POST',
    '/api/stop',
    api((_req, res, who) => {
      sessions.get(chatKey(who.chat)).stop?.abort();
      reply(res, 204);
    }),
  );

  http.mount(
    'POST',
    '/api/new-chat',
    api((_req, res) => {
      res.appendHeader('set-cookie', cookie(CHAT_COOKIE, newId()));
      reply(res, 204);
    }),
  );

  async function stop(): Promise<void> {
    stopping = true;
    await work.drain(config.SHUTDOWN_GRACE_MS);
    for (const session of sessions.all()) for (const client of session.clients) client.close();
    started = false;
  }

  return {
    name: 'web',
    async start() {
      started = true;
      const where =
        config.PORT === 0 ? 'on the port the log names' : `at ${pageUrl(config.WEB_HOST, config.PORT)}`;
      (options.announce ?? ((line) => process.stdout.write(`${line}\n`)))(`thinkthread: web chat ${where}`);
      logger.info({ host: config.WEB_HOST, port: config.PORT, token: gate.required }, 'web chat ready');
    },
    stop: () => {
      stopped ??= stop();
      return stopped;
    },
    readiness: () => (started ? { ready: true } : { ready: false, reason: 'not started' }),
    idle: () => work.idle(),
  };
}

/** The page's address; a wildcard bind address is reached at 127.0.0.1 from this machine. */
function pageUrl(host: string, port: number): string {
  const name = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `http://${name.includes(':') ? `[${name}]` : name}:${port}/`;
}
