import type { Asker } from '../governance/asker.js';

/** Who asks the question running in a conversation, and where: what the `schedule` tool schedules as. */
export interface RunPlace {
  asker: Asker;
  /** Whose settings apply (a thread's parent channel). */
  settingsKey: string;
  /** The asker's display name. */
  author: string;
}

/**
 * The place of each run in progress, by conversation key. A conversation runs one question at a time (its
 * line), so the key names the run a tool call belongs to without the agent carrying the asker around.
 */
export interface RunPlaces {
  /** Records a run starting in `key`; the returned function forgets it when the run ends. */
  enter(key: string, place: RunPlace): () => void;
  get(key: string): RunPlace | undefined;
}

/** Creates the registry of runs in progress. */
export function createRunPlaces(): RunPlaces {
  const places = new Map<string, RunPlace>();
  return {
    enter(key, place) {
      places.set(key, place);
      return () => {
        if (places.get(key) === place) places.delete(key);
      };
    },
    get: (key) => places.get(key),
  };
}
