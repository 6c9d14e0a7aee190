import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { APPROVAL_EXPIRED } from '../../core/approvals/approval-wording.js';
import { MAX_REASON_CHARS } from '../../core/approvals/create-approvals.js';
import type { KnowledgeStore } from '../../core/ports/knowledge-store.js';
import type { RunLogStore } from '../../core/ports/run-log-store.js';
import type { WebChatStore } from '../../core/ports/web-chat-store.js';
import type { WebSessionStore } from '../../core/ports/web-session-store.js';
import { documentLimits } from '../shared/read-document.js';
import { WORDING } from '../shared/wording.js';
import { createWorkTracker } from '../shared/work-tracker.js';
import type { PlatformAdapter, PlatformDeps } from '../types.js';
import { AUTH_COOKIE } from './access-token.js';
import { mountAdmin } from './admin/admin-routes.js';
import { mountAskRoute, uploadMaxBytes } from './ask-route.js';
import { createBackoff } from './backoff.js';
import { mountChatRoutes } from './chat-routes.js';
import { createChatSessions, MAX_CLIENTS_PER_CHAT } from './chat-sessions.js';
import { clientAddress } from './client-address.js';
import { conversationSnapshot, stillWaiting } from './conversation.js';
import { cookie, readCookies } from './cookies.js';
import { openEventStream } from './event-stream.js';
import { chatKey } from './identity.js';
import { reply } from './replies.js';
import { readJson } from './request-body.js';
import { hostAllowed, sameOrigin } from './request-guard.js';
import { SECURITY_HEADERS } from './security-headers.js';
import { mountSignIn } from './sign-in/routes.js';
import { WEB_AUTHOR } from './start-run.js';
import { mountStaticFiles } from './static-files.js';
import { storeView } from './store-view.js';
import { createStreamCaps } from './stream-caps.js';
import { webSystemRunDelivery } from './system-run-delivery.js';
import type { Api } from './web-api.js';
import { createWebAuth } from './web-auth.js';
import { webChatLine } from './web-chat-line.js';
import type { Visitor } from './web-gate.js';
import type { WebRun } from './web-run.js';

export { MAX_QUESTION_CHARS } from './ask-body.js';

/** How long a refused event stream is told to wait before trying again. */
const STREAM_RETRY_SECONDS = 5;

const loginBody = z.object({ token: z.string().max(1000) });
const approveBody = z.object({
  id: z.string().min(1).max(64),
  approve: z.boolean(),
  reason: z
    .string()
    .trim()
    .max(MAX_REASON_CHARS, `a reason has at most ${MAX_REASON_CHARS} characters`)
    .optional(),
});

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
  /** The clock of the token backoff and cookie expiry (tests move it). */
  now?: () => number;
  /**
   * Where conversations are kept (the sidebar, each answer with its steps); without it the page shows
   * the current conversation from memory only.
   */
  chats?: WebChatStore | undefined;
  /** Run logs and usage aggregates for `/admin`; the bot's store (`chats`) when that is the whole store. */
  runLogs?: RunLogStore | undefined;
  /** Sign-in and admin sessions; the bot's store (`chats`) when that is the whole store, else this process's memory. */
  sessions?: WebSessionStore | undefined;
}

/**
 * The web chat on the shared HTTP server: the page at `/`, its files, a small JSON API with server-sent
 * events, and (WEB_AUTH=slack|discord) sign-in. Who asks is decided by WEB_AUTH (see web-gate.ts): a
 * signed-in Slack or Discord person, or a browser let in by the token (or, on loopback only, by nothing),
 * whose ID the server mints and seals. The current conversation (memory key `web:<chat>`) is a sealed
 * cookie bound to its owner.
 */
export function createWebAdapter(deps: PlatformDeps, options: WebAdapterOptions = {}): WebAdapter {
  const { config, assistant, http } = deps;
  const { chats } = options;
  const now = options.now ?? Date.now;
  const logger = deps.logger.child({ platform: 'web' });
  const localOnly = config.WEB_AUTH === 'none';
  const auth = createWebAuth(config, { store: chats, sessions: options.sessions, logger, now });
  const { cookieOptions, identities, sessionCookies, token, provider, signedIn, gate } = auth;
  const guesses = createBackoff({ now });
  const streams = createStreamCaps(config.WEB_MAX_STREAMS);
  const sessions = createChatSessions(config.MAX_SESSIONS);
  const work = createWorkTracker(logger);
  let started = false;
  let stopping = false;
  let stopped: Promise<void> | undefined;
  const uploads = {
    maxBytes: config.ATTACHMENT_MAX_BYTES,
    documents: documentLimits(config.ATTACHMENT_MAX_TOKENS, config.DOCUMENT_MAX_BYTES),
  };

  const address = (req: IncomingMessage) => clientAddress(req, config.WEB_TRUST_PROXY);
  const guard = (req: IncomingMessage) => hostAllowed(req, !localOnly);

  /** Common checks of every API request, then who asks; unknown visitors are told how to get in (401). */
  const api: Api = (handler) => {
    return async (req: IncomingMessage, res: ServerResponse) => {
      if (!started) return reply(res, 503, { error: 'starting' });
      if (!guard(req)) return reply(res, 403, { error: 'unknown host' });
      if (req.method === 'POST' && !sameOrigin(req)) return reply(res, 403, { error: 'cross-origin' });
      const setCookies: string[] = [];
      const from = address(req);
      let visitor: Visitor | undefined;
      try {
        visitor = await gate.admit(readCookies(req), from, setCookies);
      } catch (err) {
        logger.error({ err }, 'could not read a web session');
        return reply(res, 503, { error: 'Could not reach the store; try again.' });
      }
      if (setCookies.length > 0) res.setHeader('set-cookie', setCookies);
      if (!visitor) return reply(res, 401, gate.challenge);
      await handler(req, res, { visitor, address: from });
    };
  };

  mountStaticFiles(http, guard);
  mountAdmin(http, {
    config,
    gate: auth.adminGate,
    sessions: auth.sessionStore,
    signedIn,
    store: options.runLogs ?? storeView<RunLogStore>(chats, 'listRuns', 'adminStats', 'runDetail'),
    knowledge: { store: storeView<KnowledgeStore>(chats, 'knowledgeFiles'), indexer: deps.knowledgeBase },
    assistant,
    logger,
    cookieOptions,
    allowed: guard,
    serving: () => started && !stopping,
    now,
  });
  if (provider && signedIn && config.WEB_PUBLIC_URL) {
    mountSignIn(http, {
      provider,
      sessions: sessionCookies,
      signedIn,
      address,
      identities,
      publicUrl: config.WEB_PUBLIC_URL,
      logger,
      serving: () => started && !stopping,
    });
  }

  http.mount(
    'GET',
    '/api/session',
    api((_req, res, { visitor }) =>
      reply(res, 200, {
        ok: true,
        auth: gate.mode,
        // The page refuses a larger file before sending it; the server refuses it too (413).
        files: { maxBytes: uploadMaxBytes(uploads) },
        ...(visitor.name ? { user: { name: visitor.name } } : {}),
      }),
    ),
  );

  http.mount('POST', '/api/login', async (req, res) => {
    if (!started) return reply(res, 503, { error: 'starting' });
    if (!guard(req)) return reply(res, 403, { error: 'unknown host' });
    if (!sameOrigin(req)) return reply(res, 403, { error: 'cross-origin' });
    if (gate.mode === 'none') return reply(res, 204);
    if (gate.mode !== 'token') return reply(res, 404, { error: 'sign in instead' });
    const from = address(req);
    const wait = guesses.wait(from);
    if (wait > 0) {
      const seconds = Math.ceil(wait / 1000);
      req.resume();
      return reply(
        res,
        429,
        { error: `Too many wrong tokens; try again in ${seconds} s.`, retryAfter: seconds },
        { 'retry-after': String(seconds) },
      );
    }
    const body = await readJson(req, loginBody);
    if (!body.ok) return reply(res, body.status, { error: body.error });
    const proof = token.check(body.value.token);
    if (!proof) {
      guesses.fail(from);
      logger.info({ address: from }, 'a wrong web chat token was given');
      return reply(res, 401, { error: 'That token is not right.' });
    }
    guesses.succeed(from);
    reply(res, 204, undefined, { 'set-cookie': [cookie(AUTH_COOKIE, proof, cookieOptions)] });
  });

  http.mount(
    'GET',
    '/api/events',
    api(async (req, res, { visitor, address: from }) => {
      if (stopping) return reply(res, 503, { error: WORDING.shuttingDown });
      const release = streams.take(from);
      if (!release) {
        return reply(
          res,
          429,
          { error: 'Too many open chats from here; close some tabs.' },
          { 'retry-after': String(STREAM_RETRY_SECONDS) },
        );
      }
      const session = sessions.get(chatKey(visitor.chat));
      const stream = openEventStream(req, res, SECURITY_HEADERS);
      stream.onClose(release);
      if (session.clients.size >= MAX_CLIENTS_PER_CHAT) session.clients.values().next().value?.close();
      session.clients.add(stream);
      stream.onClose(() => session.clients.delete(stream));
      try {
        const [history, kept, waiting] = await Promise.all([
          assistant.history(session.key),
          chats ? chats.webChatRuns(visitor.owner, session.key) : [],
          // A call kept through a restart keeps its buttons only while it still waits.
          assistant.keptApprovals?.(session.key).catch(() => undefined),
        ]);
        const shown = stillWaiting(kept as WebRun[], new Set(waiting?.map((call) => call.id)));
        stream.send('conversation', conversationSnapshot(history, session.run, shown));
      } catch (err) {
        logger.error({ err, key: session.key }, 'could not read a web conversation');
        stream.send('conversation', {
          turns: [],
          runs: [],
          ...(session.run ? { run: session.run } : {}),
          problem: 'Could not read this chat’s memory; reload to try again.',
        });
      }
    }),
  );

  mountAskRoute(http, api, {
    assistant,
    sessions,
    work,
    logger,
    chats,
    knowledge: deps.knowledge,
    uploads,
    stopping: () => stopping,
  });

  http.mount(
    'POST',
    '/api/stop',
    api((_req, res, { visitor }) => {
      sessions.get(chatKey(visitor.chat)).stop?.abort();
      reply(res, 204);
    }),
  );

  http.mount(
    'POST',
    '/api/approve',
    api(async (req, res, { visitor }) => {
      const body = await readJson(req, approveBody);
      if (!body.ok) return reply(res, body.status, { error: body.error });
      if (!assistant.decideApproval) return reply(res, 200, { status: 'expired', message: APPROVAL_EXPIRED });
      const { id, approve, reason } = body.value;
      try {
        const press = await assistant.decideApproval(
          id,
          approverOf(visitor),
          approve ? { approve: true } : { approve: false, reason },
        );
        // What the page needs: how the press went (a run elsewhere has its arguments in `elsewhere`).
        reply(res, 200, 'message' in press ? press : { status: press.status });
      } catch (err) {
        logger.error({ err }, 'could not decide an approval');
        reply(res, 503, { error: WORDING.commandFailed });
      }
    }),
  );

  http.mount(
    'POST',
    '/api/new-chat',
    api((_req, res, { visitor }) => {
      res.appendHeader('set-cookie', identities.newChat(visitor.owner));
      reply(res, 204);
    }),
  );

  mountChatRoutes(http, api, { chats, identities, sessions, assistant, logger });

  async function stop(): Promise<void> {
    stopping = true;
    auth.stopSweeping();
    await work.drain(config.SHUTDOWN_GRACE_MS);
    for (const session of sessions.all()) for (const client of session.clients) client.close();
    started = false;
  }

  return {
    name: 'web',
    async start() {
      await auth.keepSecret();
      started = true;
      auth.startSweeping();
      (options.announce ?? ((line) => process.stdout.write(`${line}\n`)))(
        webChatLine(config.WEB_HOST, config.PORT),
      );
      logger.info({ host: config.WEB_HOST, port: config.PORT, auth: config.WEB_AUTH }, 'web chat ready');
    },
    stop: () => {
      stopped ??= stop();
      return stopped;
    },
    readiness: () => (started ? { ready: true } : { ready: false, reason: 'not started' }),
    idle: () => work.idle(),
    systemRuns: {
      ...webSystemRunDelivery(sessions, { assistant, work, logger, chats }),
      ready: () => started && !stopping,
    },
  };
}

/** Who presses Approve or Deny in the browser. */
function approverOf(visitor: Visitor) {
  return {
    principal: visitor.asker.principal,
    name: visitor.name ?? WEB_AUTHOR,
    platformAdmin: visitor.asker.platformAdmin,
  };
}
