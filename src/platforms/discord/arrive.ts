import type { Arrival } from '../../core/ports/run-queue.js';
import { WORDING } from '../shared/wording.js';
import type { DiscordContext } from './answer.js';

/** Where a question is shown, as the shared line records it, so another replica can say it was interrupted. */
export type DiscordPlaceholder =
  | { channelId: string; messageId: string }
  /** A slash command's response: editable only through the interaction's webhook, for 15 minutes. */
  | { interaction: { applicationId: string; token: string } };

/**
 * The question's place in the shared line (several replicas): null when it was seen already, or when the
 * line cannot be reached (the asker is then told so, through `tell`); undefined in one process, where the
 * line is the order of asking.
 */
export async function arrive(
  ctx: DiscordContext,
  key: string,
  delivery: string,
  tell: (text: string) => Promise<unknown>,
): Promise<Arrival | null | undefined> {
  if (!ctx.line) return undefined;
  try {
    return (await ctx.line.arrive(key, 'discord', [delivery])) ?? null;
  } catch (err) {
    ctx.logger.error({ err }, 'could not admit a Discord question');
    await tell(WORDING.storageUnavailable);
    return null;
  }
}
