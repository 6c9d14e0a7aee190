import type { App, webApi } from '@slack/bolt';
import type { Logger } from '../../core/logger.js';
import { cut } from '../shared/format-step.js';
import { safeMarkdown } from './native-markdown.js';

/** Longest thread title set from a question. */
export const TITLE_CHARS = 80;
/** Threads remembered as already titled; the oldest are forgotten first. */
const TITLED_MAX = 5000;

/** A suggested prompt: the button's title and the message it sends. */
export interface SuggestedPrompt {
  title: string;
  message: string;
}

/** The app's DM / agent view: suggested prompts, thread titles and the working status. */
export interface AgentSurface {
  /** Offers the suggested prompts when someone opens the agent view or starts a thread in it. */
  register(app: App): void;
  /** Shows `status` under the thread (an empty status clears it); never rejects, failures are only logged. */
  status(client: webApi.WebClient, channel: string, threadTs: string, status: string): Promise<void>;
  /** Titles a DM thread after its first question; never rejects. */
  title(client: webApi.WebClient, channel: string, threadTs: string, question: string): Promise<void>;
}

/** Creates the agent surface; with no prompts configured none are offered. */
export function createAgentSurface(prompts: readonly SuggestedPrompt[], logger: Logger): AgentSurface {
  const titled = new Set<string>();
  const quietly = (what: string) => (err: unknown) => logger.debug({ err }, what);

  const suggest = (client: webApi.WebClient, channel: string, threadTs?: string) => {
    if (prompts.length === 0) return Promise.resolve();
    return client.assistant.threads
      .setSuggestedPrompts({
        channel_id: channel,
        ...(threadTs ? { thread_ts: threadTs } : {}),
        prompts: prompts.map((p) => ({ title: p.title, message: p.message })),
      })
      .then(() => {}, quietly('could not set the suggested prompts'));
  };

  return {
    register(app) {
      app.event('assistant_thread_started', async ({ event, client }) => {
        await suggest(client, event.assistant_thread.channel_id, event.assistant_thread.thread_ts);
      });
      // The agent messaging view (apps created since mid-2026) sends this instead of assistant_thread_started.
      app.event('app_home_opened', async ({ event, client }) => {
        if (event.tab === 'messages') await suggest(client, event.channel);
      });
    },
    status(client, channel, threadTs, status) {
      return client.assistant.threads
        .setStatus({ channel_id: channel, thread_ts: threadTs, status })
        .then(() => {}, quietly('could not set the thread status'));
    },
    title(client, channel, threadTs, question) {
      const key = `${channel}:${threadTs}`;
      if (titled.has(key)) return Promise.resolve();
      titled.add(key);
      if (titled.size > TITLED_MAX) titled.delete(titled.values().next().value!);
      const title = cut(safeMarkdown(question.replace(/\s+/g, ' ').trim()), TITLE_CHARS).text;
      if (!title) return Promise.resolve();
      return client.assistant.threads
        .setTitle({ channel_id: channel, thread_ts: threadTs, title })
        .then(() => {}, quietly('could not set the thread title'));
    },
  };
}
