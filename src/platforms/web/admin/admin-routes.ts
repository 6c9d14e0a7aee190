import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import type { Config } from '../../../config.js';
import type { Assistant } from '../../../core/assistant.js';
import { zoneOffsetMs } from '../../../core/governance/zoned-time.js';
import type { Logger } from '../../../core/logger.js';
import type { RunLogStore } from '../../../core/ports/run-log-store.js';
import type { UsageOutcome } from '../../../core/ports/usage-store.js';
import type { WebSessionStore } from '../../../core/ports/web-session-store.js';
import { dataDirOf } from '../../../evals/eval-history.js';
import type { HttpRoutes } from '../../../server/http-server.js';
import { createBackoff } from '../backoff.js';
import type { CookieOptions } from '../cookies.js';
import { reply } from '../replies.js';
import { readJson } from '../request-body.js';
import { sameOrigin } from '../request-guard.js';
import type { WebSessions } from '../sign-in/web-sessions.js';
import { chartData } from './admin-charts.js';
import { mountAdminEvals } from './admin-eval-routes.js';
import { mountAdminFiles } from './admin-files.js';
import type { AdminGate } from './admin-gate.js';
import { type AdminKnowledgeDeps, mountAdminKnowledge } from './admin-knowledge-routes.js';
import { namesOf } from './admin-names.js';
import { mountAdminSessions } from './admin-session-routes.js';
import { settingsOverview } from './settings-overview.js';

/** The periods the page offers, in days. */
export const PERIODS = [7, 30, 90] as const;
/** Rows of the top-people and top-channels tables. */
const TOP = 10;
/** Runs per page of the list. */
const RUNS_PER_PAGE = 50;
const DAY_MS = 86_400_000;

const loginBody = z.object({ token: z.string().max(1000) });
const OUTCOMES = ['answered', 'failed', 'cancelled', 'refused', 'limited', 'pending'] as const;

/** What the admin routes need. */
export interface AdminDeps {
  /** The knowledge base's files and KNOWLEDGE_DIR's indexer, for the Knowledge tab. */
  knowledge?: AdminKnowledgeDeps | undefined;
  config: Config;
  gate: AdminGate;
  /** Run logs and the aggregates; without them the page says the store keeps none. */
  store: RunLogStore | undefined;
  assistant: Assistant;
  logger: Logger;
  cookieOptions: CookieOptions;
  /** The web chat's host check (DNS rebinding) and whether it serves at all (started, not stopping). */
  allowed(req: IncomingMessage): boolean;
  serving(): boolean;
  now?: () => number;
  /** Sign-in sessions, listed and ended from the page. */
  sessions: WebSessionStore;
  signedIn?: WebSessions | undefined;
}

/** Mounts `/admin`, its files and its read-only JSON API (`/admin/api/…`). */
export function mountAdmin(http: HttpRoutes, deps: AdminDeps): void {
  const { config, gate, store, logger } = deps;
  const now = deps.now ?? Date.now;
  const guesses = createBackoff({ now });
  mountAdminFiles(http, deps.allowed);

  type Handler = (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<void> | void;
  /** Checks of every API request: serving, host, origin, then the admin gate (refusals say how to get in). */
  const api = (handler: Handler) => async (req: IncomingMessage, res: ServerResponse) => {
    if (!deps.serving()) return reply(res, 503, { error: 'starting' });
    if (!deps.allowed(req)) return reply(res, 403, { error: 'unknown host' });
    if (!sameOrigin(req)) return reply(res, 403, { error: 'cross-origin' });
    const access = await gate.check(req).catch((err: unknown) => {
      logger.error({ err }, 'could not check an admin session');
      return undefined;
    });
    if (!access) return reply(res, 503, { error: 'Could not read the store; try again.' });
    if (!access.ok) {
      const { ok: _, status, ...body } = access;
      return reply(res, status, body);
    }
    try {
      await handler(req, res, new URL(req.url ?? '/', 'http://admin'));
    } catch (err) {
      logger.error({ err, path: req.url }, 'an admin request failed');
      reply(res, 503, { error: 'Could not read the store; try again.' });
    }
  };
  mountAdminSessions(http, api, { store: deps.sessions, signedIn: deps.signedIn });
  mountAdminKnowledge(http, api, deps.knowledge ?? { store: undefined, indexer: undefined });
  mountAdminEvals(http, api, { store, dataDir: dataDirOf(config.DATABASE_URL), now });
  const noStore = (res: ServerResponse) => reply(res, 503, { error: 'This store keeps no run logs.' });

  http.mount(
    'GET',
    '/admin/api/session',
    api(async (req, res) => {
      const access = await gate.check(req);
      reply(res, 200, {
        who: access.ok ? access.who : '',
        byToken: gate.byToken,
        runLogDays: config.RUN_LOG_RETENTION_DAYS,
        periods: PERIODS,
        priced:
          config.LLM_PRICE_INPUT_PER_MTOK !== undefined || config.LLM_PRICE_OUTPUT_PER_MTOK !== undefined,
      });
    }),
  );

  http.mount(
    'GET',
    '/admin/api/stats',
    api(async (_req, res, url) => {
      if (!store) return noStore(res);
      const at = now();
      const days = periodOf(url);
      const offsetMs = zoneOffsetMs(config.DEFAULT_TIMEZONE, at);
      const lastDay = Math.floor((at + offsetMs) / DAY_MS);
      const firstDay = lastDay - days + 1;
      const filters = filtersOf(url);
      const stats = await store.adminStats(
        { since: firstDay * DAY_MS - offsetMs, until: at + 1, offsetMs, ...filters },
        TOP,
      );
      reply(res, 200, {
        period: days,
        filters,
        charts: chartData(stats, firstDay, lastDay, {
          input: config.LLM_PRICE_INPUT_PER_MTOK,
          output: config.LLM_PRICE_OUTPUT_PER_MTOK,
        }),
        topPeople: stats.topPeople,
        names: await namesOf(
          stats.topPeople.map((p) => p.name),
          deps.sessions,
        ),
        topChannels: stats.topChannels,
        tools: stats.tools,
        platforms: stats.platforms,
        models: stats.models,
      });
    }),
  );

  http.mount(
    'GET',
    '/admin/api/runs',
    api(async (_req, res, url) => {
      if (!store) return noStore(res);
      const at = now();
      const before = Number(url.searchParams.get('before'));
      const outcome = url.searchParams.get('outcome');
      const runs = await store.listRuns({
        since: at - periodOf(url) * DAY_MS,
        until: at + 1,
        ...filtersOf(url),
        outcome: OUTCOMES.includes(outcome as never) ? (outcome as UsageOutcome) : undefined,
        search: url.searchParams.get('q')?.slice(0, 200) || undefined,
        before: Number.isSafeInteger(before) && before > 0 ? before : undefined,
        limit: RUNS_PER_PAGE,
      });
      reply(res, 200, {
        runs,
        names: await namesOf(
          runs.map((r) => r.userId),
          deps.sessions,
        ),
        more: runs.length === RUNS_PER_PAGE,
        runLogDays: config.RUN_LOG_RETENTION_DAYS,
      });
    }),
  );

  http.mount(
    'GET',
    '/admin/api/run',
    api(async (_req, res, url) => {
      if (!store) return noStore(res);
      const id = Number(url.searchParams.get('id'));
      const run = Number.isSafeInteger(id) && id > 0 ? await store.runDetail(id) : undefined;
      if (!run) return reply(res, 404, { error: 'No such run.' });
      const names = await namesOf([run.userId], deps.sessions);
      reply(res, 200, { run, names, runLogDays: config.RUN_LOG_RETENTION_DAYS });
    }),
  );

  http.mount(
    'GET',
    '/admin/api/settings',
    api(async (_req, res) => {
      const saved = store ? await store.adminChannelSettings() : [];
      reply(res, 200, settingsOverview(config, deps.assistant.tools().groups, saved));
    }),
  );

  http.mount('POST', '/admin/api/login', async (req, res) => {
    if (!deps.serving()) return reply(res, 503, { error: 'starting' });
    if (!deps.allowed(req)) return reply(res, 403, { error: 'unknown host' });
    if (!sameOrigin(req)) return reply(res, 403, { error: 'cross-origin' });
    if (!gate.byToken) return reply(res, 404, { error: 'Sign in instead.' });
    const from = req.socket.remoteAddress ?? 'unknown';
    const wait = guesses.wait(from);
    if (wait > 0) {
      req.resume();
      const seconds = Math.ceil(wait / 1000);
      return reply(
        res,
        429,
        { error: `Too many wrong tokens; try again in ${seconds} s.` },
        { 'retry-after': String(seconds) },
      );
    }
    const body = await readJson(req, loginBody);
    if (!body.ok) return reply(res, body.status, { error: body.error });
    let proof: string | undefined;
    try {
      proof = await gate.login(body.value.token);
    } catch (err) {
      logger.error({ err }, 'could not start an admin session');
      return reply(res, 503, { error: 'Could not reach the store; try again.' });
    }
    if (!proof) {
      guesses.fail(from);
      logger.info({ address: from }, 'a wrong ADMIN_TOKEN was given');
      return reply(res, 401, { error: 'That token is not right.' });
    }
    guesses.succeed(from);
    reply(res, 204, undefined, { 'set-cookie': [proof] });
  });

  http.mount('POST', '/admin/api/logout', async (req, res) => {
    if (!sameOrigin(req)) return reply(res, 403, { error: 'cross-origin' });
    try {
      reply(res, 204, undefined, { 'set-cookie': [await gate.logout(req)] });
    } catch (err) {
      logger.error({ err }, 'could not end an admin session');
      reply(res, 503, { error: 'Could not reach the store; try again.' });
    }
  });
}

/** The period asked for: 7, 30 or 90 days (30 otherwise). */
function periodOf(url: URL): number {
  const days = Number(url.searchParams.get('days'));
  return PERIODS.includes(days as never) ? days : 30;
}

/** The filters asked for (empty ones left out). */
function filtersOf(url: URL) {
  const text = (name: string) => url.searchParams.get(name)?.trim().slice(0, 300) || undefined;
  return { platform: text('platform'), key: text('channel'), userId: text('person'), model: text('model') };
}
