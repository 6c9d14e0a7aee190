import type { webApi } from '@slack/bolt';
import type { Logger } from '../../core/logger.js';

/** How long a looked-up display name is reused; renames show up after this. */
export const USER_NAME_TTL_MS = 60 * 60 * 1000;
/** Most names kept; the oldest is dropped first. */
export const USER_NAME_CACHE_SIZE = 5000;

/** What the bot needs to know of a Slack user: the name people see, and whether they administer the workspace. */
export interface SlackUser {
  name: string;
  /** A workspace admin or owner. */
  admin: boolean;
}

/** Looks a user id up. */
export type UserDirectory = (client: webApi.WebClient, userId: string) => Promise<SlackUser>;

/**
 * Users via `users.info`, cached so the hot path costs one Web API call per user per hour. A failed
 * lookup falls back to the user id (and no admin rights) and is not cached, so the next question tries again.
 */
export function createUserDirectory(logger: Logger, now: () => number = Date.now): UserDirectory {
  const cache = new Map<string, { name: Promise<SlackUser>; expires: number }>();
  return (client, userId) => {
    const hit = cache.get(userId);
    if (hit && hit.expires > now()) return hit.name;
    cache.delete(userId);
    const name = client.users.info({ user: userId }).then(
      (res) => {
        const user = res.user;
        const name =
          [user?.profile?.display_name, user?.profile?.real_name, user?.real_name, user?.name]
            .map((n) => n?.trim())
            .find((n) => n) ?? userId;
        return { name, admin: Boolean(user?.is_admin || user?.is_owner || user?.is_primary_owner) };
      },
      (err: unknown) => {
        cache.delete(userId);
        logger.warn({ user: userId, err }, 'users.info failed');
        return { name: userId, admin: false };
      },
    );
    // Concurrent questions from one user share a single lookup.
    cache.set(userId, { name, expires: now() + USER_NAME_TTL_MS });
    if (cache.size > USER_NAME_CACHE_SIZE) cache.delete(cache.keys().next().value!);
    return name;
  };
}
