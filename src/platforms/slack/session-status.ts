import type { App, webApi } from '@slack/bolt';
import type { Logger } from '../../core/logger.js';
import { cut } from '../shared/format-step.js';
import { WORDING } from '../shared/wording.js';
import { safeMarkdown } from './native-markdown.js';
import type { SessionSupport } from './session-support.js';

/** An agent session's lifecycle status (docs.slack.dev/reference/methods/agents.sessions.setStatus `status`). */
export type SessionStatus = 'processing' | 'active' | 'suspended' | 'closed';

/** Longest session (or thread) title made from a question; Slack takes 200, a list reads better shorter. */
export const TITLE_CHARS = 80;
/** Threads remembered (renamed by a person, titled, opened); the oldest are forgotten first. */
const REMEMBERED = 5000;

/** The status line `assistant.threads.setStatus` shows for each session status, where sessions are missing. */
const LEGACY_STATUS: Record<SessionStatus, string> = {
  processing: WORDING.working,
  suspended: WORDING.waitingApproval,
  active: '',
  closed: '',
};

/** Where a run's session is: the question's thread. */
export interface SessionPlace {
  team: string;
  channel: string;
  threadTs: string;
  /** The question, which titles a new session. */
  question: string;
  /** A DM with the app: without agent sessions only its threads get a title (`assistant.threads.setTitle`). */
  dm: boolean;
}

/** One run's session: its status, set in order, with the stream's stop carrying the last one where it can. */
export interface RunSession {
  /** Shows `status` from now on; a repeat is not sent. */
  set(status: SessionStatus): void;
  /** The run is ending with `status`: a stream stopped from now on carries it (see {@link StreamSession}). */
  ending(status: SessionStatus): void;
  /** Sends the status wanted unless a stream's stop already carried it; resolves once every call is done. */
  settle(): Promise<void>;
  /** What a `chat.stopStream` may carry as `session_status`, once earlier calls landed; none without sessions. */
  forStop(): Promise<SessionStatus | undefined>;
  /** A `chat.stopStream` set `status`. */
  stopped(status: SessionStatus): void;
}

/** Agent sessions for the runs of one app; `assistant.threads.*` where a workspace has none. */
export interface SessionStatuses {
  /** Hears `agent_session_title_changed`: a title a person gave a session is never replaced. */
  register(app: App): void;
  /** The session of one run, at first `processing` and titled after the question when Slack makes it. */
  open(client: webApi.WebClient, place: SessionPlace): RunSession;
  /** Closes the session of a thread whose conversation ended (a thanks); only sessions this process opened. */
  close(client: webApi.WebClient, team: string, channel: string, threadTs: string): Promise<void>;
}

/** Slack's agent sessions (docs.slack.dev/ai/agent-sessions), falling back per workspace to `assistant.threads.*`. */
export function createSessionStatuses(support: SessionSupport, logger: Logger): SessionStatuses {
  const renamed = rememberer();
  const titled = rememberer();
  const opened = rememberer();
  const keyOf = (team: string, channel: string, threadTs: string) => `${team}:${channel}:${threadTs}`;
  const quietly = (what: string) => (err: unknown) => logger.debug({ err }, what);

  /** The legacy status line (and, once, a DM thread's title). */
  async function legacy(client: webApi.WebClient, place: SessionPlace, status: SessionStatus, title: string) {
    const { channel, threadTs } = place;
    await client.assistant.threads
      .setStatus({ channel_id: channel, thread_ts: threadTs, status: LEGACY_STATUS[status] })
      .then(() => {}, quietly('could not set the thread status'));
    const key = keyOf(place.team, channel, threadTs);
    if (status !== 'processing' || !place.dm || !title || renamed.has(key) || titled.has(key)) return;
    titled.add(key);
    await client.assistant.threads
      .setTitle({ channel_id: channel, thread_ts: threadTs, title })
      .then(() => {}, quietly('could not set the thread title'));
  }

  return {
    register(app) {
      app.event('agent_session_title_changed', async ({ event, body, context }) => {
        const team = context.teamId ?? event.team_id ?? (body as { team_id?: string }).team_id ?? 'unknown';
        renamed.add(keyOf(team, event.channel, event.thread_ts));
      });
    },
    open(client, place) {
      const { team, channel, threadTs } = place;
      const key = keyOf(team, channel, threadTs);
      const title = cut(safeMarkdown(place.question.replace(/\s+/g, ' ').trim()), TITLE_CHARS).text;
      let wanted: SessionStatus = 'processing';
      let sent: SessionStatus | undefined;
      let first = true;
      let chain: Promise<void> = Promise.resolve();

      /** Sets `status`; the first call (which may create the session) titles it, or reads back the title it has. */
      async function send(status: SessionStatus): Promise<void> {
        if (sent === status) return;
        sent = status;
        const creating = first;
        first = false;
        if (support.has(team)) {
          try {
            const res = await client.agents.sessions.setStatus({
              channel_id: channel,
              thread_ts: threadTs,
              status,
              ...(creating && title ? { title } : {}),
            });
            if (creating) opened.add(key);
            // A session the stream made first has no title: it gets one, unless a person gave it one.
            if (creating && title && !res.title && !renamed.has(key))
              await client.agents.sessions
                .rename({ channel_id: channel, thread_ts: threadTs, title })
                .then(() => {}, quietly('could not title the agent session'));
            return;
          } catch (err) {
            if (!support.refused(team, err)) return quietly('could not set the agent session status')(err);
          }
        }
        await legacy(client, place, status, creating ? title : '');
      }
      const queue = (status: SessionStatus) => {
        chain = chain.then(() => send(status));
      };
      queue('processing');

      return {
        set(status) {
          if (status === wanted) return;
          wanted = status;
          queue(status);
        },
        ending(status) {
          wanted = status;
        },
        async settle() {
          queue(wanted);
          await chain;
        },
        async forStop() {
          await chain;
          return support.has(team) ? wanted : undefined;
        },
        stopped(status) {
          sent = status;
        },
      };
    },
    async close(client, team, channel, threadTs) {
      if (!support.has(team) || !opened.has(keyOf(team, channel, threadTs))) return;
      await client.agents.sessions
        .setStatus({ channel_id: channel, thread_ts: threadTs, status: 'closed' })
        .then(() => {}, quietly('could not close the agent session'));
    },
  };
}

/** A set of the last REMEMBERED keys. */
function rememberer() {
  const keys = new Set<string>();
  return {
    has: (key: string) => keys.has(key),
    add(key: string) {
      keys.delete(key);
      keys.add(key);
      if (keys.size > REMEMBERED) keys.delete(keys.values().next().value!);
    },
  };
}
