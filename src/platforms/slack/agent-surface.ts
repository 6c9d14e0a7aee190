import type { App, webApi } from '@slack/bolt';
import type { Logger } from '../../core/logger.js';

/** A suggested prompt: the button's title and the message it sends. */
export interface SuggestedPrompt {
  title: string;
  message: string;
}

/** The app's DM / agent view: its suggested prompts (statuses and titles: session-status.ts). */
export interface AgentSurface {
  /** Offers the suggested prompts when someone opens the agent view or starts a thread in it. */
  register(app: App): void;
}

/** Creates the agent surface; with no prompts configured none are offered. */
export function createAgentSurface(prompts: readonly SuggestedPrompt[], logger: Logger): AgentSurface {
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
  };
}
