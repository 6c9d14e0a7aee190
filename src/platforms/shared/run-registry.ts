import { randomBytes } from 'node:crypto';

/** One run its buttons can name: its id, the signal that cancels it, and who stopped it. */
export interface RunControl {
  /** Short and unique: fits a button id (see run-actions.ts) with room to spare. */
  readonly id: string;
  /** Aborted when someone stops the run or shutdown cancels it. */
  readonly signal: AbortSignal;
  /** The name of who stopped the run, once someone did. */
  stoppedBy(): string | undefined;
  /** The run ended: a later Stop gets "this answer is finished". */
  end(): void;
}

/** Who pressed Stop. */
export interface Stopper {
  userId: string;
  /** How the steps name them. */
  name: string | PromiseLike<string>;
  /** Whether they are an admin (ADMIN_USERS or the platform's own admins); asked only when not the asker. */
  admin: () => boolean | PromiseLike<boolean>;
}

/** What a Stop press did: stopped the run, or nothing because it had ended or the presser may not. */
export type StopResult = 'stopped' | 'finished' | 'forbidden';

/** The runs of one adapter that are still going, by id. */
export interface RunRegistry {
  /** Registers a run asked by `askerId`, cancelled also when `shutdown` aborts. */
  start(askerId: string, shutdown: AbortSignal): RunControl;
  /**
   * Stops run `id` for `who` when they are its asker or an admin. Acts once: a second press, a press
   * after the end or on a run from before a restart is `finished`.
   */
  stop(id: string, who: Stopper): Promise<StopResult>;
}

interface Entry {
  askerId: string;
  controller: AbortController;
  stoppedBy?: string;
}

/** A registry held in memory: a restart forgets every run, whose answers are then finished. */
export function createRunRegistry(): RunRegistry {
  const runs = new Map<string, Entry>();
  return {
    start(askerId, shutdown) {
      let id = randomBytes(6).toString('base64url');
      while (runs.has(id)) id = randomBytes(6).toString('base64url');
      const entry: Entry = { askerId, controller: new AbortController() };
      runs.set(id, entry);
      return {
        id,
        signal: AbortSignal.any([shutdown, entry.controller.signal]),
        stoppedBy: () => entry.stoppedBy,
        end: () => void runs.delete(id),
      };
    },
    async stop(id, who) {
      const entry = runs.get(id);
      if (!entry || entry.stoppedBy !== undefined) return 'finished';
      if (who.userId !== entry.askerId && !(await who.admin())) return 'forbidden';
      const name = await who.name;
      // Checked again: the run may have ended, or been stopped by someone else, while the name was looked up.
      if (!runs.has(id) || entry.stoppedBy !== undefined) return 'finished';
      entry.stoppedBy = name;
      entry.controller.abort();
      return 'stopped';
    },
  };
}
