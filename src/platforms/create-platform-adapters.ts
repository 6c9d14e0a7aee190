import type { Config } from '../config.js';
import type { Assistant } from '../core/assistant.js';
import type { Logger } from '../core/logger.js';
import type { PlatformAdapter } from './types.js';

/** The chat platforms this configuration enables (Discord, Slack, or both); empty means the terminal chat. */
export async function createPlatformAdapters(
  _config: Config,
  _assistant: Assistant,
  _logger: Logger,
): Promise<PlatformAdapter[]> {
  return [];
}
