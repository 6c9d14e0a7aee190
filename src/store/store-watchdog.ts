import { StorageLostError } from '../core/errors.js';
import type { ConversationStore } from '../core/ports/conversation-store.js';

/** How often the running bot checks that its database is still there. */
export const STORE_WATCH_MS = 5000;

/**
 * Pings `store` every `everyMs` and calls `onLost` once when the database itself is gone (a deleted file, a
 * dropped schema). A store that is only unreachable is left to /readyz and recovers by itself. Returns a stop.
 */
export function watchStore(
  store: Pick<ConversationStore, 'ping'>,
  onLost: (err: StorageLostError) => void,
  everyMs = STORE_WATCH_MS,
): () => void {
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    store
      .ping()
      .catch((err: unknown) => {
        if (!(err instanceof StorageLostError)) return;
        clearInterval(timer);
        onLost(err);
      })
      .finally(() => {
        busy = false;
      });
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
