import type { App } from '@slack/bolt';
import type { Logger } from '../../core/logger.js';
import type { RunRegistry } from '../shared/run-registry.js';
import type { WorkTracker } from '../shared/work-tracker.js';
import type { UserDirectory } from './user-names.js';

/** A native stream going on: its run, and how to tell it Slack stopped it. */
interface Session {
  runId: string;
  /** The stream's ts, once it started. */
  ts?: string;
  closedByUser?: () => void;
}

/** The streaming runs of each thread, for Slack's own stop button (`agent_session_stopped`). */
export interface AgentSessions {
  /** Adds a run streaming in `channel`'s thread `threadTs`; the returned function removes it. */
  open(
    team: string,
    channel: string,
    threadTs: string,
    runId: string,
  ): { streaming(ts: string, closed: () => void): void; close(): void };
  /** Stops the runs a user stopped with Slack's stop button, as the Stop button does, naming them. */
  register(
    app: App,
    deps: { runs: RunRegistry; users: UserDirectory; work: WorkTracker; logger: Logger },
  ): void;
}

/**
 * `agent_session_stopped` (docs.slack.dev/reference/events/agent_session_stopped): "Stop any in-progress
 * work for the given channel and thread"; `streaming_message_ts` lists the streams Slack stopped. Slack
 * already stopped them, so whoever pressed may stop the run.
 */
export function createAgentSessions(): AgentSessions {
  const threads = new Map<string, Set<Session>>();
  const keyOf = (team: string, channel: string, threadTs: string) => `${team}:${channel}:${threadTs}`;
  return {
    open(team, channel, threadTs, runId) {
      const key = keyOf(team, channel, threadTs);
      const session: Session = { runId };
      const sessions = threads.get(key) ?? new Set();
      sessions.add(session);
      threads.set(key, sessions);
      return {
        streaming(ts, closed) {
          session.ts = ts;
          session.closedByUser = closed;
        },
        close() {
          sessions.delete(session);
          if (sessions.size === 0 && threads.get(key) === sessions) threads.delete(key);
        },
      };
    },
    register(app, deps) {
      app.event('agent_session_stopped', async ({ event, body, context, client }) => {
        const stopped = event as unknown as {
          channel: string;
          user: string;
          thread_ts: string;
          streaming_message_ts?: string[];
        };
        const team = context.teamId ?? (body as { team_id?: string }).team_id ?? 'unknown';
        const sessions = [...(threads.get(keyOf(team, stopped.channel, stopped.thread_ts)) ?? [])];
        if (sessions.length === 0) return;
        deps.work.run('a stop in Slack', async () => {
          const name = deps.users(client, stopped.user).then((u) => u.name);
          for (const session of sessions) {
            if (session.ts && stopped.streaming_message_ts?.includes(session.ts)) session.closedByUser?.();
            await deps.runs.stop(session.runId, { userId: stopped.user, name, admin: () => true });
          }
        });
      });
    },
  };
}
