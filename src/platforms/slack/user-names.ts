import type { webApi } from '@slack/bolt';
import type { Logger } from '../../core/logger.js';

/** How long a looked-up display name is reused; renames show up after this. */
export const USER_NAME_TTL_MS = 60 * 60 * 1000;
/** Most names kept; the oldest is dropped first. */
export const USER_NAME_CACHE_SIZE = 5000;

/** Resolves a user id to the name people see in Slack. */
export type UserNames = (client: webApi.WebClient, userId: string) => Promise<string>;

/**
 * Display names via `users.info`, cached so the hot path costs one Web API call per user per hour. A
 * failed lookup falls back to the user id and is not cached, so the next question tries again.
 */
export function createUserNames(logger: Logger, now: () => number = Date.now): UserNames {
  const cache = new Map<string, { name: Promise<string>; expires: number }>();
  return (client, userId) => {
    const hit = cache.get(userId);
    if (hit && hit.expires > now()) return hit.name;
    cache.delete(userId);
    const name = client.users.info({ user: userId }).then(
      (res) => {
        const user = res.user;
        return (
          [user?.profile?.display_name, user?.profile?.real_name, user?.real_name, user?.name]
            .map((n) => n?.trim())
            .find((n) => n) ?? userId
        );
      },
      (err: unknown) => {
        cache.delete(userId);
        logger.warn({ user: userId, err }, 'users.info failed');
        return userId;
      },
    );
    // Concurrent questions from one user share a single lookup.
    cache.set(userId, { name, expires: now() + USER_NAME_TTL_MS });
    if (cache.size > USER_NAME_CACHE_SIZE) cache.delete(cache.keys().next().value!);
    return name;
  };
}
