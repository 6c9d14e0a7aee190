import type { FailWith } from './sqlite-usage.js';

/** Runs synchronous SQLite work as a promise, its failure a StorageError saying what could not be done. */
export function sqliteRunner(fail: FailWith) {
  return <T>(what: string, work: () => T): Promise<T> => {
    try {
      return Promise.resolve(work());
    } catch (err) {
      return Promise.reject(fail(what, err));
    }
  };
}
