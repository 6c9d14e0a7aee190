import { discordPlatform } from './discord/platform.js';
import { slackPlatform } from './slack/platform.js';
import type { PlatformEntry } from './types.js';
import { webPlatform } from './web/platform.js';

/** Every chat platform the bot can serve; adding one is its folder plus one line here. */
export const PLATFORMS: readonly PlatformEntry[] = [discordPlatform, slackPlatform, webPlatform];

/** The folder of the terminal chat, which runs when no platform is enabled. */
export const CONSOLE_PLATFORM = 'console';

/** The platforms this configuration enables, in registry order. */
export function enabledPlatforms(config: Parameters<PlatformEntry['enabled']>[0]): PlatformEntry[] {
  return PLATFORMS.filter((platform) => platform.enabled(config));
}
