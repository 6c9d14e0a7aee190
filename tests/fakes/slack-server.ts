import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type WebSocket, WebSocketServer } from 'ws';
import { createFakeAgentSessions } from './slack-agent-sessions.js';

// biome-ignore lint/suspicious/noExplicitAny: Slack payloads are loose JSON; tests read the fields they need.
type Json = any;

/** One Web API call the fake received (`chat.postMessage`, `chat.update`, `users.info`, …). */
export interface SlackApiCall {
  method: string;
  /** The bearer token the call carried. */
  token: string | undefined;
  /** Arguments, with JSON-encoded fields (blocks, attachments) parsed. */
  args: Json;
  /** The HTTP status answered: 200, or an override's (e.g. 429 to test rate limiting). */
  status: number;
  /** The JSON body answered. */
  reply: Json;
  /** `performance.now()` when the call arrived, for benchmarks that count calls per second. */
  at: number;
}

/** A message the bot posted; `chat.update` edits it in place and keeps the versions. */
export interface FakeSlackMessage {
  channel: string;
  ts: string;
  threadTs: string | undefined;
  text: string;
  blocks: Json[] | undefined;
  /** Every version, first post included. */
  versions: { text: string; blocks: Json[] | undefined; at: number }[];
  /** Message metadata the bot attached (e.g. marking its steps messages). */
  metadata?: Json;
  /** For a message made by `chat.startStream`: what was streamed into it. */
  stream?: FakeStream;
}

/** A message someone else wrote (see `addMessage`), which `conversations.replies` returns. */
export interface FakeSlackHistoryMessage {
  type: 'message';
  channel: string;
  user: string;
  text: string;
  ts: string;
  thread_ts?: string;
  files?: Json[];
}

/** A file the fake serves at its `url_private_download`, and how each download of it went. */
export interface FakeSlackDownload {
  fileId: string;
  /** The request carried the bot token. */
  authorized: boolean;
  /** Bytes handed to the socket before the download ended. */
  bytesSent: number;
  /** The client hung up before the whole file was sent. */
  aborted: boolean;
  done: boolean;
}

/** A file the fake hosts, with how it is shared. */
interface FakeSlackFile {
  name: string;
  mimetype: string;
  content: Buffer;
  /** Its download answers a 302 to this address instead of the bytes. */
  redirectTo?: string | undefined;
}

/** A native stream (`chat.startStream` / `appendStream` / `stopStream`) as the fake saw it. */
export interface FakeStream {
  /** `stopped_by_user`: someone pressed Slack's own stop on it (see `pressStop`). */
  state: 'streaming' | 'stopped' | 'expired' | 'stopped_by_user';
  /** The fake clock's time at `chat.startStream`; the stream expires STREAM_LIMITS.streamLifetimeMs later. */
  startedAt: number;
  /** Made by another app (see `disown`): appends and stops answer `message_not_owned_by_app`. */
  foreign?: boolean;
  taskDisplayMode: string | undefined;
  recipient: { user: string | undefined; team: string | undefined };
  /** Every chunk received, in order (a `markdown_text` argument counts as a chunk). */
  chunks: Json[];
  /** The task cards, in the order first seen, each with its latest state and every status it went through. */
  tasks: FakeTask[];
  /** Blocks `chat.stopStream` put at the bottom. */
  finalBlocks: Json[] | undefined;
  /** appendStream calls accepted. */
  appends: number;
}

/** One task card of a stream. */
export interface FakeTask {
  id: string;
  title: string;
  status: string;
  details: string | undefined;
  output: string | undefined;
  /** Its URL sources (`{ type: 'url', url, text }`), latest given. */
  sources: Json[] | undefined;
  statuses: string[];
}

/** What the fake does with streams: expire them after some appends, or not know the methods at all. */
export interface FakeStreamingBehaviour {
  /** A stream stops accepting calls (`message_not_in_streaming_state`, stops included) after this many appends. */
  expireAfterAppends?: number | undefined;
  /** Every streaming method answers this error (e.g. `unknown_method`, `not_allowed`). */
  reject?: string | undefined;
}

/**
 * Slack's rules for streams, each written once, with where it comes from. The fake enforces every one of
 * them, and the tests read them from here.
 */
/**
 * What real Slack refuses in `views.open`, each limit once with where Slack says so; the fake and
 * slack-fake-rules.test.ts read this table.
 */
export const VIEW_LIMITS = {
  /** "trigger_id … expires in 3 seconds" (https://docs.slack.dev/interactivity/handling-user-interaction#modal_responses); else `expired_trigger_id`. */
  triggerMs: 3_000,
  /** Modal `title`, `submit`, `close`: "Maximum length for this field is 24 characters" (https://docs.slack.dev/reference/views/modal-views). */
  title: 24,
  /** `private_metadata`: "Maximum length … 3000 characters"; `callback_id`: 255; `blocks`: "Maximum of 100 blocks". Same page. */
  privateMetadata: 3_000,
  callbackId: 255,
  blocks: 100,
  /** A section's `text`: "Maximum length for this field is 3000 characters" (https://docs.slack.dev/reference/block-kit/blocks/section-block). */
  sectionText: 3_000,
} as const;

export const STREAM_LIMITS = {
  /** "markdown_text … Limit this field to 12,000 characters" (slack-api-ref docs.slack.dev/methods/chat.startStream.json, appendStream, stopStream). */
  markdownChars: 12_000,
  /** Task card title/details/output: not on Slack's pages; Microsoft Agents' `TaskUpdateChunk` says 256 ("Maximum 256 characters"). */
  taskFieldChars: 256,
  /** `chat.update` text of a streamed message, kept short (the fakes' convention; Slack documents no cap). */
  updateTextChars: 4000,
  /** `TaskUpdateChunk.status` (@slack/types 3.2 chunk.d.ts). */
  statuses: ['pending', 'in_progress', 'complete', 'error'],
  /** `task_display_mode` enum (chat.startStream.json: `timeline` | `plan`). */
  taskDisplayModes: ['timeline', 'plan'],
  /**
   * Calls a minute per workspace, per method: each method's tier (slack-api-ref docs.slack.dev/methods/*.json
   * `rate_limits`: startStream `t2`, stopStream `t2`, appendStream `t4`; docs.slack.dev/apis/web-api/rate-limits:
   * "Tier 2 20+ per minute", "Tier 4 100+ per minute"). Past it: HTTP 429, `Retry-After`, `ratelimited`.
   * agents.sessions.setStatus and rename are `t3` ("Tier 3 50+ per minute").
   */
  perMinute: {
    'chat.startStream': 20,
    'chat.stopStream': 20,
    'chat.appendStream': 100,
    'agents.sessions.setStatus': 50,
    'agents.sessions.rename': 50,
  } as Record<string, number>,
  /**
   * A stream stops taking chunks this long after it started, "even with active traffic" (python-slack-sdk
   * #1859; vercel/chat #884 "Slack expires native streams after roughly five minutes"): then
   * `message_not_in_streaming_state`.
   */
  streamLifetimeMs: 5 * 60_000,
  /**
   * The arguments each streaming method takes (@slack/web-api 8.2 `ChatStartStreamArguments`,
   * `ChatAppendStreamArguments`, `ChatStopStreamArguments`; `team_id` is what the WebClient adds for a team's
   * client). Anything else, a missing required one, or neither `markdown_text` nor `chunks` where one is
   * required is `invalid_arguments`.
   */
  arguments: {
    'chat.startStream': {
      required: ['channel', 'thread_ts'],
      optional: [
        'markdown_text',
        'chunks',
        'recipient_team_id',
        'recipient_user_id',
        'task_display_mode',
        'icon_emoji',
        'icon_url',
        'username',
        'team_id',
      ],
      textOrChunks: true,
    },
    'chat.appendStream': {
      required: ['channel', 'ts'],
      optional: ['markdown_text', 'chunks', 'team_id'],
      textOrChunks: true,
    },
    'chat.stopStream': {
      required: ['channel', 'ts'],
      optional: ['markdown_text', 'chunks', 'blocks', 'metadata', 'session_status', 'team_id'],
      textOrChunks: false,
    },
  } as Record<string, { required: string[]; optional: string[]; textOrChunks: boolean }>,
} as const;

/** A message posted to a slash command's `response_url` (what `respond()` sends). */
export interface FakeResponse {
  id: string;
  body: Json;
}

/** A Slack user for `users.info`. */
export interface FakeSlackUser {
  name: string;
  display_name?: string;
  real_name?: string;
  /** A workspace admin. */
  is_admin?: boolean;
}

/** A non-JSON-200 answer for an overridden call (errors, rate limits). */
export class HttpReply {
  constructor(
    readonly status: number,
    readonly body: Json = {},
    readonly headers: Record<string, string> = {},
  ) {}
}

/** Replaces the fake's answer to a call; return undefined to let the fake answer normally. */
export type ApiOverride = (call: { method: string; args: Json }) => Json | HttpReply | undefined;

/** Options of {@link startFakeSlack}. */
export interface FakeSlackOptions {
  team?: string;
  botUserId?: string;
  botId?: string;
  /** Users `users.info` knows; any other id answers `user_not_found`. */
  users?: Record<string, FakeSlackUser>;
  /** The bot token file downloads must carry; without it they get Slack's sign-in page (HTML). */
  botToken?: string;
  /** The fake's clock (ms) for rate windows and stream lifetimes; `Date.now` unless a test moves time. */
  now?: () => number;
}

/** A local Slack: the Web API under `/api/`, `response_url`s under `/response/`, Socket Mode at `/socket`. */
export type FakeSlack = Awaited<ReturnType<typeof startFakeSlack>>;

let tsCounter = 0;
/** Slack timestamps are unique per channel and sort by time; these are unique and rising. */
const nextTs = () =>
  `${1_800_000_000 + Math.floor(++tsCounter / 1000)}.${String(tsCounter % 1_000_000).padStart(6, '0')}`;

/** Starts a fake Slack on a free loopback port, recording every call. */
export async function startFakeSlack(options: FakeSlackOptions = {}) {
  const team = options.team ?? 'T0001';
  const botUserId = options.botUserId ?? 'UBOT';
  const botId = options.botId ?? 'BBOT';
  const users = new Map(Object.entries(options.users ?? {}));
  const calls: SlackApiCall[] = [];
  const messages: FakeSlackMessage[] = [];
  const ephemerals: Json[] = [];
  const reactions: { channel: string; timestamp: string; name: string }[] = [];
  /** Modals opened with `views.open`, in order. */
  const views: Json[] = [];
  const responses: FakeResponse[] = [];
  const overrides: ApiOverride[] = [];
  const history: FakeSlackHistoryMessage[] = [];
  const files = new Map<string, FakeSlackFile>();
  const downloads: FakeSlackDownload[] = [];
  const streaming: FakeStreamingBehaviour = {};
  const now = options.now ?? Date.now;
  /** Times of the calls each workspace made to each rate-limited method, within the last minute. */
  const windows = new Map<string, number[]>();
  /** Calls to `chat.update` on a message still streaming (what Slack does with them is documented nowhere). */
  const updatesWhileStreaming: Json[] = [];
  const agentSessions = createFakeAgentSessions();
  const assistantCalls = {
    statuses: [] as Json[],
    suggestedPrompts: [] as Json[],
    titles: [] as Json[],
  };
  const watchers = new Set<() => void>();
  const notify = () => {
    for (const watcher of watchers) watcher();
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const path = new URL(req.url ?? '/', 'http://fake').pathname;
      let status = 200;
      let headers: Record<string, string> = {};
      let body: Json;
      if (path.startsWith('/api/')) {
        const method = path.slice('/api/'.length);
        const args = parseArgs(req, raw);
        const override = overrides.map((o) => o({ method, args })).find((r) => r !== undefined);
        const reply = override ?? rateLimited(method, args) ?? answer(method, args, req);
        if (reply instanceof HttpReply) ({ status, headers, body } = reply);
        else body = reply;
        calls.push({ method, token: bearer(req), args, status, reply: body, at: performance.now() });
      } else if (path.startsWith('/files/')) {
        serveFile(path.split('/')[2] ?? '', req, res);
        return;
      } else if (path.startsWith('/response/')) {
        responses.push({ id: path.slice('/response/'.length), body: parseArgs(req, raw) });
        body = { ok: true };
      } else {
        status = 404;
        body = { ok: false, error: 'unknown_path' };
      }
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
      notify();
    });
  });

  /** A 429 with `Retry-After` when this call would pass its method's calls a minute in its workspace. */
  function rateLimited(method: string, args: Json): HttpReply | undefined {
    const limit = STREAM_LIMITS.perMinute[method];
    if (limit === undefined) return undefined;
    const key = `${args.team_id ?? team}:${method}`;
    const at = now();
    const recent = (windows.get(key) ?? []).filter((t) => t > at - 60_000);
    windows.set(key, recent);
    if (recent.length >= limit) {
      const retryAfter = Math.max(1, Math.ceil((recent[0]! + 60_000 - at) / 1000));
      return new HttpReply(429, { ok: false, error: 'ratelimited' }, { 'retry-after': String(retryAfter) });
    }
    recent.push(at);
    return undefined;
  }

  function answer(method: string, args: Json, req: IncomingMessage): Json {
    switch (method) {
      case 'auth.test':
        return {
          ok: true,
          url: 'https://fake.slack.com/',
          team: 'Fake',
          user: 'thinkthread',
          team_id: team,
          user_id: botUserId,
          bot_id: botId,
        };
      case 'apps.connections.open':
        return { ok: true, url: `ws://${req.headers.host}/socket` };
      case 'users.info': {
        const user = users.get(args.user);
        if (!user) return { ok: false, error: 'user_not_found' };
        const profile = { display_name: user.display_name ?? '', real_name: user.real_name ?? '' };
        return {
          ok: true,
          user: {
            id: args.user,
            name: user.name,
            real_name: user.real_name,
            is_admin: user.is_admin ?? false,
            profile,
          },
        };
      }
      case 'chat.postMessage': {
        if (!args.channel) return { ok: false, error: 'channel_not_found' };
        const ts = nextTs();
        const message: FakeSlackMessage = {
          channel: args.channel,
          ts,
          threadTs: args.thread_ts || undefined,
          text: args.text ?? '',
          blocks: args.blocks,
          versions: [{ text: args.text ?? '', blocks: args.blocks, at: performance.now() }],
          ...(args.metadata ? { metadata: args.metadata } : {}),
        };
        messages.push(message);
        return {
          ok: true,
          channel: args.channel,
          ts,
          message: { type: 'message', text: message.text, user: botUserId, bot_id: botId, ts },
        };
      }
      case 'chat.startStream':
      case 'chat.appendStream':
      case 'chat.stopStream':
        return answerStream(method, args);
      case 'agents.sessions.setStatus':
      case 'agents.sessions.rename':
        return agentSessions.answer(method, args, bearer(req));
      case 'assistant.threads.setStatus':
        if (!args.channel_id || !args.thread_ts || typeof args.status !== 'string')
          return { ok: false, error: 'invalid_arguments' };
        assistantCalls.statuses.push(args);
        return { ok: true };
      case 'assistant.threads.setSuggestedPrompts': {
        const prompts = args.prompts;
        if (!args.channel_id || !Array.isArray(prompts) || prompts.length === 0 || prompts.length > 4)
          return { ok: false, error: 'invalid_arguments' };
        if (prompts.some((p: Json) => !p.title || !p.message))
          return { ok: false, error: 'invalid_arguments' };
        assistantCalls.suggestedPrompts.push(args);
        return { ok: true };
      }
      case 'assistant.threads.setTitle':
        if (!args.channel_id || !args.thread_ts || !args.title)
          return { ok: false, error: 'invalid_arguments' };
        assistantCalls.titles.push(args);
        return { ok: true };
      case 'chat.update': {
        const message = messages.find((m) => m.channel === args.channel && m.ts === args.ts);
        if (!message) return { ok: false, error: 'message_not_found' };
        if (message.stream?.state === 'streaming') updatesWhileStreaming.push(args);
        if (message.stream && String(args.text ?? '').length > STREAM_LIMITS.updateTextChars)
          return { ok: false, error: 'msg_too_long' };
        message.text = args.text ?? '';
        message.blocks = args.blocks;
        message.versions.push({ text: message.text, blocks: message.blocks, at: performance.now() });
        return { ok: true, channel: args.channel, ts: args.ts, text: message.text };
      }
      case 'conversations.replies':
        return replies(args);
      case 'files.info':
        return fileInfo(args);
      case 'chat.postEphemeral':
        ephemerals.push(args);
        return { ok: true, message_ts: nextTs() };
      case 'views.open':
        return openView(args);
      case 'reactions.add':
        return addReaction(args);
      default:
        return { ok: true };
    }
  }

  /**
   * `reactions.add` as the bot (docs.slack.dev/reference/methods/reactions.add; scope reactions:write): `channel`,
   * `timestamp` and `name` (an emoji name without colons) are required (`no_item_specified`, `invalid_name`); the
   * message must exist (`message_not_found`); the same emoji twice on one message is `already_reacted`.
   */
  function addReaction(args: Json): Json {
    const { channel, timestamp, name } = args;
    if (!channel || !timestamp) return { ok: false, error: 'no_item_specified' };
    if (typeof name !== 'string' || !/^[a-z0-9_+'-]+$/.test(name))
      return { ok: false, error: 'invalid_name' };
    const exists =
      messages.some((m) => m.channel === channel && m.ts === timestamp) ||
      history.some((m) => m.channel === channel && m.ts === timestamp);
    if (!exists) return { ok: false, error: 'message_not_found' };
    if (reactions.some((r) => r.channel === channel && r.timestamp === timestamp && r.name === name))
      return { ok: false, error: 'already_reacted' };
    reactions.push({ channel, timestamp, name });
    notify();
    return { ok: true };
  }

  /** `views.open`: refused as Slack refuses it (VIEW_LIMITS), else kept in `views`. */
  function openView(args: Json): Json {
    const minted = Number(String(args.trigger_id ?? '').split('.')[1]);
    if (!Number.isFinite(minted)) return { ok: false, error: 'invalid_trigger_id' };
    if (Date.now() - minted > VIEW_LIMITS.triggerMs) return { ok: false, error: 'expired_trigger_id' };
    const view = typeof args.view === 'string' ? JSON.parse(args.view) : args.view;
    const too = (text: unknown, max: number) => typeof text === 'string' && text.length > max;
    if (
      !view?.title?.text ||
      too(view.title.text, VIEW_LIMITS.title) ||
      too(view.submit?.text, VIEW_LIMITS.title) ||
      too(view.close?.text, VIEW_LIMITS.title) ||
      too(view.private_metadata, VIEW_LIMITS.privateMetadata) ||
      too(view.callback_id, VIEW_LIMITS.callbackId) ||
      !Array.isArray(view.blocks) ||
      view.blocks.length > VIEW_LIMITS.blocks ||
      view.blocks.some((b: Json) => b?.type === 'section' && too(b.text?.text, VIEW_LIMITS.sectionText))
    ) {
      return { ok: false, error: 'invalid_arguments' };
    }
    const opened = { id: `V${views.length + 1}`, ...view };
    views.push(opened);
    return { ok: true, view: opened };
  }

  /** A thread's messages (the bot's and everyone's), parent first, within `oldest`/`latest`, paged by `limit`. */
  function replies(args: Json): Json {
    const bot = messages.map((m) => ({
      type: 'message',
      channel: m.channel,
      user: botUserId,
      bot_id: botId,
      text: m.text,
      ts: m.ts,
      ...(m.threadTs ? { thread_ts: m.threadTs } : {}),
      ...(m.metadata && args.include_all_metadata ? { metadata: m.metadata } : {}),
    }));
    const inclusive = args.inclusive === 'true' || args.inclusive === true;
    const inThread = [...history, ...bot]
      .filter((m) => m.channel === args.channel && (m.ts === args.ts || m.thread_ts === args.ts))
      .sort((a, b) => Number(a.ts) - Number(b.ts));
    if (inThread.length === 0) return { ok: false, error: 'thread_not_found' };
    const within = inThread.filter(
      (m) =>
        m.ts === args.ts ||
        ((!args.oldest || (inclusive ? m.ts >= args.oldest : m.ts > args.oldest)) &&
          (!args.latest || (inclusive ? m.ts <= args.latest : m.ts < args.latest))),
    );
    const start = Number(args.cursor ?? 0);
    const limit = Number(args.limit ?? 1000);
    const page = within.slice(start, start + limit).map(({ channel: _, ...m }) => m);
    const next = start + limit < within.length ? String(start + limit) : '';
    return { ok: true, messages: page, has_more: next !== '', response_metadata: { next_cursor: next } };
  }

  /** The file object Slack's events and `files.info` carry for a hosted file. */
  function fileObject(id: string, file: FakeSlackFile): Json {
    return {
      id,
      name: file.name,
      title: file.name,
      mimetype: file.mimetype,
      filetype: file.name.split('.').pop(),
      size: file.content.length,
      mode: 'hosted',
      file_access: 'visible',
      url_private: `${url}/files/${id}/${encodeURIComponent(file.name)}`,
      url_private_download: `${url}/files/${id}/download/${encodeURIComponent(file.name)}`,
    };
  }

  /**
   * `files.info` as Slack documents it: `{ ok, file, comments, response_metadata }`, or `file_not_found`
   * (docs.slack.dev/reference/methods/files.info; its machine copy, slack-ruby/slack-api-ref
   * `docs.slack.dev/methods/files.info.json`: required argument `file`, output `file` with `id`, errors
   * `file_not_found`, `file_deleted`, `access_denied`).
   */
  function fileInfo(args: Json): Json {
    const file = files.get(String(args.file ?? ''));
    if (!file) return { ok: false, error: 'file_not_found' };
    return {
      ok: true,
      file: fileObject(args.file, file),
      comments: [],
      response_metadata: { next_cursor: '' },
    };
  }

  /** Streams a file in chunks, as Slack's file servers do, noting how far each download got. */
  function serveFile(id: string, req: IncomingMessage, res: ServerResponse): void {
    const file = files.get(id);
    const authorized = !options.botToken || bearer(req) === options.botToken;
    const download: FakeSlackDownload = { fileId: id, authorized, bytesSent: 0, aborted: false, done: false };
    downloads.push(download);
    if (!file) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    if (!authorized) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<html>Sign in to Slack</html>');
      download.done = true;
      notify();
      return;
    }
    if (file.redirectTo) {
      res.writeHead(302, { location: file.redirectTo }).end();
      download.done = true;
      notify();
      return;
    }
    res.writeHead(200, { 'content-type': file.mimetype, 'content-length': String(file.content.length) });
    const CHUNK = 64 * 1024;
    res.on('close', () => {
      download.aborted = !download.done;
      notify();
    });
    const pump = () => {
      while (download.bytesSent < file.content.length && !res.destroyed) {
        const chunk = file.content.subarray(download.bytesSent, download.bytesSent + CHUNK);
        download.bytesSent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      if (res.destroyed) return;
      download.done = true;
      res.end();
    };
    pump();
  }

  function answerStream(method: string, args: Json): Json {
    if (streaming.reject) return { ok: false, error: streaming.reject };
    const badArgs = invalidArguments(method, args);
    if (badArgs) return { ok: false, error: 'invalid_arguments', response_metadata: { messages: [badArgs] } };
    const badStatus = agentSessions.invalidStopStatus(args);
    if (badStatus)
      return { ok: false, error: 'invalid_arguments', response_metadata: { messages: [badStatus] } };
    const problem = invalidChunks(args);
    // appendStream.json documents `invalid_chunks` for chunks Slack cannot take.
    if (problem) return { ok: false, error: 'invalid_chunks', response_metadata: { messages: [problem] } };
    if (method === 'chat.startStream') {
      const dm = String(args.channel).startsWith('D');
      if (!dm && !args.recipient_user_id) return { ok: false, error: 'missing_recipient_user_id' };
      if (!dm && !args.recipient_team_id) return { ok: false, error: 'missing_recipient_team_id' };
      const ts = nextTs();
      const stream: FakeStream = {
        state: 'streaming',
        startedAt: now(),
        taskDisplayMode: args.task_display_mode,
        recipient: { user: args.recipient_user_id, team: args.recipient_team_id },
        chunks: [],
        tasks: [],
        finalBlocks: undefined,
        appends: 0,
      };
      const message: FakeSlackMessage = {
        channel: args.channel,
        ts,
        threadTs: args.thread_ts,
        text: '',
        blocks: undefined,
        versions: [],
        stream,
      };
      messages.push(message);
      const tooLong = addChunks(message, args);
      if (tooLong) return tooLong;
      agentSessions.streamStarted(args.channel, args.thread_ts);
      return { ok: true, channel: args.channel, ts };
    }
    const message = messages.find((m) => m.channel === args.channel && m.ts === args.ts);
    if (!message?.stream) return { ok: false, error: 'message_not_found' };
    const stream = message.stream;
    if (stream.foreign) return { ok: false, error: 'message_not_owned_by_app' };
    if (stream.state === 'streaming' && now() - stream.startedAt > STREAM_LIMITS.streamLifetimeMs) {
      stream.state = 'expired';
      agentSessions.streamExpired(message.channel, message.threadTs!);
    }
    // "The streaming message was stopped by the user and no further appends are accepted" (appendStream.json).
    if (stream.state === 'stopped_by_user') return { ok: false, error: 'stopped_by_user' };
    if (stream.state !== 'streaming') return { ok: false, error: 'message_not_in_streaming_state' };
    if (streaming.expireAfterAppends !== undefined && stream.appends >= streaming.expireAfterAppends) {
      stream.state = 'expired';
      agentSessions.streamExpired(message.channel, message.threadTs!);
      return { ok: false, error: 'message_not_in_streaming_state' };
    }
    if (method === 'chat.appendStream') stream.appends++;
    const tooLong = addChunks(message, args);
    if (tooLong) return tooLong;
    if (method === 'chat.stopStream') {
      stream.state = 'stopped';
      stream.finalBlocks = args.blocks;
      message.blocks = args.blocks;
      agentSessions.streamStopped(message.channel, message.threadTs!, args.session_status);
    }
    return { ok: true, channel: args.channel, ts: args.ts };
  }

  // Socket Mode: one JSON envelope per event; the client acks with the same envelope_id.
  const wss = new WebSocketServer({ noServer: true });
  const sockets = new Set<WebSocket>();
  const pendingAcks = new Map<string, (payload: Json) => void>();
  let connections = 0;
  server.on('upgrade', (req, socket, head) => {
    if (new URL(req.url ?? '/', 'http://fake').pathname !== '/socket') return socket.destroy();
    wss.handleUpgrade(req, socket, head, (ws) => {
      connections++;
      sockets.add(ws);
      ws.on('close', () => sockets.delete(ws));
      ws.on('message', (data) => {
        let frame: Json;
        try {
          frame = JSON.parse(String(data));
        } catch {
          return; // Slack ignores what it cannot parse, and so does the fake
        }
        pendingAcks.get(frame.envelope_id)?.(frame.payload ?? {});
        pendingAcks.delete(frame.envelope_id);
        notify();
      });
      ws.send(JSON.stringify({ type: 'hello', num_connections: 1, connection_info: { app_id: 'A0001' } }));
      notify();
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  /** Resolves with `probe()`'s first truthy value, checked now and after every request the fake handles. */
  function waitFor<T>(probe: () => T | undefined | null | false, timeoutMs = 10_000): Promise<T> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const value = probe();
        if (!value) return;
        done();
        resolve(value);
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`fake Slack: condition not met within ${timeoutMs} ms`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        watchers.delete(check);
      };
      watchers.add(check);
      check();
    });
  }

  return {
    url,
    /** Give this to the app as `slackApiUrl` (SLACK_API_URL). */
    apiUrl: `${url}/api/`,
    team,
    botUserId,
    botId,
    calls,
    messages,
    ephemerals,
    /** Reactions the bot added (`reactions.add`), in order. */
    reactions,
    responses,
    /** A fresh `response_url` for a slash command; what is posted to it lands in `responses`. */
    responseUrl: (id: string = randomUUID()) => `${url}/response/${id}`,
    /** Messages people wrote, as `addMessage` stored them. */
    history,
    /** Every file download, in order. */
    downloads,
    /**
     * Stores a message someone wrote (a reply in `threadTs` when given), for `conversations.replies`;
     * deliver its event separately when the bot should see it.
     */
    addMessage(message: { channel: string; user: string; text: string; threadTs?: string; files?: Json[] }) {
      const stored: FakeSlackHistoryMessage = {
        type: 'message',
        channel: message.channel,
        user: message.user,
        text: message.text,
        ts: nextTs(),
        ...(message.threadTs ? { thread_ts: message.threadTs } : {}),
        ...(message.files ? { files: message.files } : {}),
      };
      history.push(stored);
      return stored;
    },
    /** Answers `conversations.replies` as Slack does for an app without the history scopes (or `error`). */
    denyHistory(error: 'missing_scope' | 'not_in_channel' = 'missing_scope') {
      overrides.push(({ method }) =>
        method === 'conversations.replies'
          ? { ok: false, error, needed: 'channels:history,groups:history,im:history,mpim:history' }
          : undefined,
      );
    },
    /**
     * A file to attach to a message event: the object events carry, served at its `url_private_download`.
     * `checkFileInfo` gives the stub Slack sends in Slack Connect channels instead (no name, no URLs;
     * `files.info` has the rest): "file_access": "check_file_info" (docs.slack.dev/reference/events/message/
     * file_share, "Slack Connect files"; api.slack.com/apis/channels-between-orgs#check_file_info).
     * `redirectTo` makes its download a 302 to that address.
     */
    addFile(
      name: string,
      mimetype: string,
      content: Buffer | string,
      options: { checkFileInfo?: boolean; redirectTo?: string } = {},
    ): Json {
      const id = `F${String(files.size + 1).padStart(6, '0')}`;
      const bytes = typeof content === 'string' ? Buffer.from(content) : content;
      const file: FakeSlackFile = { name, mimetype, content: bytes, redirectTo: options.redirectTo };
      files.set(id, file);
      if (options.checkFileInfo)
        return {
          id,
          mode: 'file_access',
          file_access: 'check_file_info',
          created: 0,
          timestamp: 0,
          user: '',
        };
      return fileObject(id, file);
    },
    /** Adds a user `users.info` knows. */
    addUser: (id: string, user: FakeSlackUser) => users.set(id, user),
    /** Overrides answers (e.g. `chat.postMessage` → `{ ok: false, error: 'not_in_channel' }`, or a 429). */
    override: (fn: ApiOverride) => overrides.push(fn),
    waitFor,
    /** How streams behave from now on (expiry, unknown methods). */
    streaming,
    /**
     * Presses Slack's own stop on the streaming message `ts`, as `user`: the stream takes no more
     * (`stopped_by_user`). Returns the `agent_session_stopped` event Slack then sends (docs.slack.dev/reference/
     * events/agent_session_stopped: `channel`, `user`, `thread_ts`, `streaming_message_ts`, `event_ts`), for
     * the test to deliver.
     */
    pressStop(ts: string, user: string): Json {
      const message = messages.find((m) => m.ts === ts && m.stream);
      if (!message?.stream) throw new Error(`fake Slack: no stream ${ts}`);
      const streamed = message.stream.state === 'streaming';
      if (streamed) message.stream.state = 'stopped_by_user';
      notify();
      return eventCallback(
        {
          type: 'agent_session_stopped',
          channel: message.channel,
          user,
          thread_ts: message.threadTs,
          streaming_message_ts: streamed ? [ts] : [],
          event_ts: nextTs(),
        },
        { team },
      );
    },
    /** Makes the stream `ts` another app's: appends and stops answer `message_not_owned_by_app`. */
    disown(ts: string) {
      const message = messages.find((m) => m.ts === ts && m.stream);
      if (message?.stream) message.stream.foreign = true;
    },
    /** Modals opened with `views.open`, in order. */
    views,
    /** `chat.update` calls on messages that were still streaming. */
    updatesWhileStreaming,
    /** `assistant.threads.setStatus` / `setSuggestedPrompts` / `setTitle` calls accepted, in order. */
    assistant: assistantCalls,
    /**
     * Agent sessions (`agents.sessions.*`, and the status streams give them): `get(channel, threadTs)`,
     * `behaviour.refuse` (e.g. `unknown_method`) for a workspace without them; rules in slack-agent-sessions.ts.
     */
    agentSessions,
    /** A person renames a thread's agent session in Slack; returns the `agent_session_title_changed` event to deliver. */
    renameSession(channel: string, threadTs: string, title: string, user: string): Json {
      const event = agentSessions.renameByUser(channel, threadTs, title, user, team, nextTs());
      notify();
      return eventCallback(event, { team });
    },
    /** Calls of one Web API method, in order. */
    callsTo: (method: string) => calls.filter((c) => c.method === method),
    socket: {
      /** Socket Mode connections opened so far. */
      get connections() {
        return connections;
      },
      /**
       * Sends an envelope (`events_api` with an event_callback payload, `slash_commands` with the
       * command's fields, or `interactive` with a block_actions payload) and resolves with the payload of
       * the client's ack.
       */
      async send(
        type: 'events_api' | 'slash_commands' | 'interactive',
        payload: Json,
        retry?: { attempt: number; reason?: string },
      ): Promise<Json> {
        const ws = await waitFor(() => [...sockets].find((s) => s.readyState === s.OPEN));
        const envelopeId = randomUUID();
        const acked = new Promise<Json>((resolve) => pendingAcks.set(envelopeId, resolve));
        ws.send(
          JSON.stringify({
            envelope_id: envelopeId,
            type,
            payload,
            accepts_response_payload: type === 'slash_commands',
            ...(retry
              ? { retry_attempt: retry.attempt, retry_reason: retry.reason ?? 'timeout' }
              : { retry_attempt: 0 }),
          }),
        );
        return acked;
      },
    },
    async close() {
      for (const ws of sockets) ws.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * The text a person sees in a message: its blocks (or its text without blocks), with Slack's escapes undone.
 * A natively streamed message shows what was streamed (its task cards are in {@link taskCards}).
 */
export function visibleText(message: {
  text: string;
  blocks?: Json[] | undefined;
  stream?: FakeStream | undefined;
}): string {
  const textual = (message.blocks ?? []).filter((b: Json) => TEXT_BLOCKS.has(b.type));
  if (message.stream && textual.length === 0) return message.text;
  const parts = message.blocks?.length
    ? textual.flatMap((b: Json) =>
        b.type === 'section'
          ? [b.text?.text ?? '']
          : b.type === 'markdown'
            ? [b.text ?? '']
            : b.elements.map((e: Json) => e.text ?? ''),
      )
    : [message.text];
  const text = parts.join('\n');
  // Markdown blocks are not mrkdwn: Slack shows `&amp;` in them literally.
  return message.blocks?.some((b: Json) => b.type === 'markdown') ? text : unescapeSlack(text);
}

const TEXT_BLOCKS = new Set(['section', 'context', 'markdown']);

/** The task cards a message shows: its card blocks once rewritten, else what was streamed. */
export function cardsOf(message: {
  stream?: FakeStream | undefined;
  blocks?: Json[] | undefined;
}): Pick<FakeTask, 'title' | 'status' | 'details' | 'output' | 'sources'>[] {
  const rewritten =
    message.stream?.state !== 'streaming' &&
    message.blocks?.some((b: Json) => b.type === 'task_card' || b.type === 'plan');
  if (!rewritten) return message.stream?.tasks ?? [];
  const richText = (r: Json) =>
    r?.elements?.flatMap((e: Json) => e.elements?.map((t: Json) => t.text ?? '') ?? []).join('') || undefined;
  return message
    .blocks!.flatMap((b: Json) => (b.type === 'plan' ? b.tasks : b.type === 'task_card' ? [b] : []))
    .map((b: Json) => ({
      title: b.title,
      status: b.status,
      details: richText(b.details),
      output: richText(b.output),
      sources: b.sources,
    }));
}

/**
 * A streamed message's task cards as people read them: `title: details → output [status]`, one per line.
 * Once `chat.update` rewrote the message, the cards are those of its `task_card` / `plan` blocks.
 */
export function taskCards(message: { stream?: FakeStream | undefined; blocks?: Json[] | undefined }): string {
  return cardsOf(message)
    .map((t) =>
      [t.title, t.details ? `: ${t.details}` : '', t.output ? ` → ${t.output}` : '', ` [${t.status}]`].join(
        '',
      ),
    )
    .join('\n');
}

/** Why the SDK's argument types (and so Slack) reject a streaming call's arguments, or undefined. */
function invalidArguments(method: string, args: Json): string | undefined {
  const rule = STREAM_LIMITS.arguments[method]!;
  for (const name of Object.keys(args))
    if (!rule.required.includes(name) && !rule.optional.includes(name)) return `unknown argument ${name}`;
  for (const name of rule.required)
    if (typeof args[name] !== 'string' || !args[name]) return `${name} is required`;
  for (const name of ['markdown_text', 'recipient_team_id', 'recipient_user_id', 'session_status'])
    if (args[name] !== undefined && typeof args[name] !== 'string') return `${name} must be a string`;
  if (rule.textOrChunks && args.markdown_text === undefined && args.chunks === undefined)
    return 'either markdown_text or chunks is required';
  if (args.chunks !== undefined && !Array.isArray(args.chunks)) return 'chunks must be an array';
  if (args.blocks !== undefined && !Array.isArray(args.blocks)) return 'blocks must be an array';
  if (
    args.task_display_mode !== undefined &&
    !STREAM_LIMITS.taskDisplayModes.includes(args.task_display_mode)
  )
    return 'task_display_mode must be timeline or plan';
  return undefined;
}

/** Why Slack would refuse these stream chunks, or undefined when it would take them. */
function invalidChunks(args: Json): string | undefined {
  if (typeof args.markdown_text === 'string' && args.markdown_text.length > STREAM_LIMITS.markdownChars)
    return 'markdown_text is too long';
  for (const chunk of args.chunks ?? []) {
    switch (chunk.type) {
      case 'markdown_text':
        if (typeof chunk.text !== 'string' || chunk.text.length > STREAM_LIMITS.markdownChars)
          return 'bad markdown_text chunk';
        break;
      case 'task_update':
        if (!chunk.id || !chunk.title || !STREAM_LIMITS.statuses.includes(chunk.status))
          return 'bad task_update chunk';
        for (const field of ['title', 'details', 'output'])
          if (chunk[field] !== undefined && String(chunk[field]).length > STREAM_LIMITS.taskFieldChars)
            return `task_update ${field} is too long`;
        if (chunk.sources !== undefined && invalidSources(chunk.sources)) return 'bad task_update sources';
        break;
      case 'plan_update':
        if (!chunk.title) return 'bad plan_update chunk';
        break;
      case 'blocks':
        if (!Array.isArray(chunk.blocks) || chunk.blocks.length > 50) return 'bad blocks chunk';
        break;
      default:
        return `unknown chunk type ${chunk.type}`;
    }
  }
  if (Array.isArray(args.blocks) && args.blocks.length > 50) return 'too many blocks';
  return undefined;
}

/**
 * Why a task's `sources` are not Slack's URL source elements: "type … always `url`", `url` and `text` required
 * (docs.slack.dev/reference/block-kit/block-elements/url-source-element), or undefined.
 */
function invalidSources(sources: Json): boolean {
  if (!Array.isArray(sources)) return true;
  return sources.some(
    (s: Json) =>
      s?.type !== 'url' ||
      typeof s.text !== 'string' ||
      !s.text ||
      typeof s.url !== 'string' ||
      !/^https?:\/\/\S+$/.test(s.url),
  );
}

/** Records a stream call's chunks on its message; an error reply when the message would grow past Slack's limit. */
function addChunks(message: FakeSlackMessage, args: Json): Json | undefined {
  const stream = message.stream!;
  const chunks: Json[] = [
    ...(typeof args.markdown_text === 'string' ? [{ type: 'markdown_text', text: args.markdown_text }] : []),
    ...(args.chunks ?? []),
  ];
  const added = chunks
    .filter((c) => c.type === 'markdown_text')
    .reduce((n: number, c: Json) => n + c.text.length, 0);
  if (message.text.length + added > STREAM_LIMITS.markdownChars) return { ok: false, error: 'msg_too_long' };
  for (const chunk of chunks) {
    stream.chunks.push(chunk);
    if (chunk.type === 'markdown_text') message.text += chunk.text;
    if (chunk.type !== 'task_update') continue;
    const task = stream.tasks.find((t) => t.id === chunk.id);
    if (task) {
      Object.assign(task, {
        title: chunk.title,
        status: chunk.status,
        details: chunk.details ?? task.details,
        output: chunk.output ?? task.output,
        sources: chunk.sources ?? task.sources,
      });
      task.statuses.push(chunk.status);
    } else {
      stream.tasks.push({
        id: chunk.id,
        title: chunk.title,
        status: chunk.status,
        details: chunk.details,
        output: chunk.output,
        sources: chunk.sources,
        statuses: [chunk.status],
      });
    }
  }
  message.versions.push({ text: message.text, blocks: message.blocks, at: performance.now() });
  return undefined;
}

/** Undoes Slack's three escapes (`&lt;`, `&gt;`, `&amp;`). */
export function unescapeSlack(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/** An `event_callback` body as Slack sends it, for `event` (an `app_mention` or `message` event). */
export function eventCallback(
  event: Json,
  options: { team?: string; botUserId?: string; eventId?: string } = {},
): Json {
  const team = options.team ?? 'T0001';
  return {
    token: 'legacy-verification-token',
    team_id: team,
    api_app_id: 'A0001',
    event: { event_ts: event.ts, ...event },
    type: 'event_callback',
    event_id: options.eventId ?? `Ev${randomUUID().replace(/-/g, '').slice(0, 10).toUpperCase()}`,
    event_time: Math.floor(Date.now() / 1000),
    authorizations: [
      { team_id: team, user_id: options.botUserId ?? 'UBOT', is_bot: true, is_enterprise_install: false },
    ],
    is_ext_shared_channel: false,
  };
}

/** A button pressed by `user` on one of the bot's messages: the `block_actions` payload Slack sends. */
export function blockActions(
  message: FakeSlackMessage,
  action: { type: string; action_id: string; value?: string },
  options: { user: string; responseUrl: string; team?: string },
): Json {
  const team = options.team ?? 'T0001';
  const threadTs = message.threadTs ? { thread_ts: message.threadTs } : {};
  return {
    type: 'block_actions',
    user: {
      id: options.user,
      username: options.user.toLowerCase(),
      name: options.user.toLowerCase(),
      team_id: team,
    },
    api_app_id: 'A0001',
    token: 'legacy-verification-token',
    container: {
      type: 'message',
      message_ts: message.ts,
      channel_id: message.channel,
      is_ephemeral: false,
      ...threadTs,
    },
    trigger_id: `trigger.${Date.now()}`,
    team: { id: team, domain: 'fake' },
    enterprise: null,
    is_enterprise_install: false,
    channel: { id: message.channel, name: 'general' },
    message: { type: 'message', ts: message.ts, text: message.text, blocks: message.blocks, ...threadTs },
    response_url: options.responseUrl,
    actions: [{ block_id: 'b', action_ts: `${Date.now() / 1000}`, ...action }],
  };
}

/**
 * The `view_submission` payload Slack sends when `user` submits the modal `view` (as `views.open` took it)
 * with `values` by block_id (each block's one input has the same action_id).
 */
export function viewSubmission(
  view: Json,
  values: Record<string, string>,
  options: { user: string; team?: string },
): Json {
  const team = options.team ?? 'T0001';
  return {
    type: 'view_submission',
    team: { id: team, domain: 'fake' },
    user: {
      id: options.user,
      username: options.user.toLowerCase(),
      name: options.user.toLowerCase(),
      team_id: team,
    },
    api_app_id: 'A0001',
    token: 'legacy-verification-token',
    trigger_id: `trigger.${Date.now()}`,
    view: {
      ...view,
      state: {
        values: Object.fromEntries(
          Object.entries(values).map(([block, value]) => [
            block,
            { [block]: { type: 'plain_text_input', value } },
          ]),
        ),
      },
    },
  };
}

/** A user message ts, unique and rising like Slack's. */
export const userTs = nextTs;

/** The `v0=` signature Slack puts in `x-slack-signature`: HMAC-SHA256 of `v0:<timestamp>:<raw body>`. */
export function slackSignature(secret: string, timestamp: number, body: string): string {
  return `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
}

/** Options of {@link sendSigned}. */
export interface SignedRequestOptions {
  signingSecret: string;
  /** Unix seconds; defaults to now (older than 5 minutes is stale). */
  timestamp?: number;
  /** Overrides the computed signature (to send a bad one). */
  signature?: string;
  /** Sets `x-slack-retry-num` (and a retry reason), as Slack does on redelivery. */
  retryNum?: number;
}

/**
 * Posts to a Bolt HTTP endpoint as Slack does: JSON for events, or `application/x-www-form-urlencoded`
 * (exactly; a charset suffix makes Bolt answer 400) for slash commands, signed with the signing secret.
 */
export function sendSigned(
  url: string,
  payload: { json: Json } | { form: Record<string, string> },
  options: SignedRequestOptions,
): Promise<{ status: number; body: string }> {
  const body =
    'json' in payload ? JSON.stringify(payload.json) : new URLSearchParams(payload.form).toString();
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  const headers: Record<string, string> = {
    'content-type': 'json' in payload ? 'application/json' : 'application/x-www-form-urlencoded',
    'content-length': String(Buffer.byteLength(body)),
    'x-slack-request-timestamp': String(timestamp),
    'x-slack-signature': options.signature ?? slackSignature(options.signingSecret, timestamp, body),
    ...(options.retryNum
      ? { 'x-slack-retry-num': String(options.retryNum), 'x-slack-retry-reason': 'http_timeout' }
      : {}),
  };
  return new Promise((resolve, reject) => {
    // No keep-alive: a test's server can then stop without waiting for idle sockets.
    const req = request(url, { method: 'POST', headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

function parseArgs(req: IncomingMessage, raw: string): Json {
  if (!raw) return {};
  if (String(req.headers['content-type']).includes('application/json')) return JSON.parse(raw);
  const args: Json = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    // The Web API client sends objects and arrays (blocks, attachments…) as JSON inside form fields.
    args[key] = JSON_FIELDS.has(key) ? tryJson(value) : value;
  }
  return args;
}

const JSON_FIELDS = new Set(['blocks', 'attachments', 'metadata', 'unfurls', 'chunks', 'prompts']);

function tryJson(value: string): Json {
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

function bearer(req: IncomingMessage): string | undefined {
  return /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
}
