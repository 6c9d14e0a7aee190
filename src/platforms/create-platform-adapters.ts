import type { Config } from '../config.js';
import type { Assistant } from '../core/assistant.js';
import type { Logger } from '../core/logger.js';
import type { PlatformAdapter } from './types.js';

/**
 * The chat platforms this configuration enables (Discord, Slack, or both); empty means the terminal chat.
 * Each adapter is loaded only when enabled, so the terminal chat starts without discord.js or Bolt.
 */
export async function createPlatformAdapters(
  config: Config,
  assistant: Assistant,
  logger: Logger,
): Promise<PlatformAdapter[]> {
  const adapters: PlatformAdapter[] = [];
  if (config.DISCORD_TOKEN) {
    const { createDiscordAdapter } = await import('./discord/create-discord-adapter.js');
    adapters.push(createDiscordAdapter({ config, assistant, logger }));
  }
  if (config.SLACK_BOT_TOKEN) {
    const { createSlackAdapter } = await import('./slack/create-slack-adapter.js');
    adapters.push(createSlackAdapter({ config, assistant, logger }));
  }
  return adapters;
}
