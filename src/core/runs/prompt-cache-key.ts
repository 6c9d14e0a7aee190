import { createHash } from 'node:crypto';

/**
 * The prompt-cache key of a conversation: stable for its key, the same in every replica, and carrying no
 * channel or user ID to the model's provider (a hash).
 */
export function promptCacheKey(conversationKey: string): string {
  return `tt-${createHash('sha256').update(conversationKey).digest('base64url').slice(0, 22)}`;
}
