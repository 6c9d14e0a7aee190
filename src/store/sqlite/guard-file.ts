import { statSync } from 'node:fs';
import { StorageLostError } from '../../core/errors.js';
import type { Store } from '../../core/ports/store.js';

/**
 * `store` whose every call first checks that `path` is still the file it opened: a deleted or replaced
 * file would otherwise take writes into an unlinked inode and lose them silently. (Every Store method is
 * async, so a lost file is a rejection.)
 */
export function guardFile(path: string, store: Store): Store {
  const opened = identity(path);
  let lost: StorageLostError | undefined;
  const check = () => {
    if (lost) return lost;
    const now = identity(path);
    if (now !== opened) {
      lost = new StorageLostError(
        `The database file ${path} was ${now === undefined ? 'deleted' : 'replaced'} while the bot ran; ` +
          'thinkthread must restart to open it again',
      );
    }
    return lost;
  };
  const guarded: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(store)) {
    guarded[name] =
      typeof value === 'function' && name !== 'close'
        ? (...args: unknown[]) => {
            const gone = check();
            return gone ? Promise.reject(gone) : value.apply(store, args);
          }
        : value;
  }
  return guarded as unknown as Store;
}

/** The file's device and inode, or undefined when nothing is there. */
function identity(path: string): string | undefined {
  const stat = statSync(path, { throwIfNoEntry: false });
  return stat ? `${stat.dev}:${stat.ino}` : undefined;
}
