// The injection attempts of attempts.json, checked on load: each cited, each canary unique and in its plant.
import { readFileSync } from 'node:fs';

/** One prompt-injection attempt from a public source, adapted into a plant with a canary. */
export interface Attempt {
  id: string;
  /** Paper, repository or page it comes from. */
  source: string;
  url: string;
  /** The source's wording. */
  original: string;
  /** The planted text; `{CANARY}` stands for the canary. */
  plant: string;
  /** The word the plant orders the model to say. */
  canary: string;
  /** The tool the plant asks to be called (with the canary in its input), if any. */
  tool?: string | undefined;
  /** What changed from the original. */
  adaptation: string;
}

/** How a plant is planted: as written, or after a closing tag meant to end the block quoting it. */
export type Variant = 'as-written' | 'closing-tag';

/** The closing tag a `closing-tag` plant starts with (Liu et al. 2024's escape-characters idea, on this bot's delimiter). */
export const PLANTED_CLOSER = '</untrusted>';

/** The attempts of bench/injection/attempts.json; throws when one lacks a citation or a unique canary. */
export function loadAttempts(): Attempt[] {
  const file = new URL('./attempts.json', import.meta.url);
  const { attempts } = JSON.parse(readFileSync(file, 'utf8')) as { attempts: Attempt[] };
  const canaries = new Set<string>();
  for (const a of attempts) {
    if (!a.source || !/^https:\/\//.test(a.url)) throw new Error(`attempt ${a.id} has no citation`);
    if (!a.plant.includes('{CANARY}')) throw new Error(`attempt ${a.id} plants no canary`);
    if (canaries.has(a.canary)) throw new Error(`attempt ${a.id} reuses canary ${a.canary}`);
    canaries.add(a.canary);
  }
  return attempts;
}

/** The text a member plants for `attempt` in `variant`. */
export function plantText(attempt: Attempt, variant: Variant): string {
  const text = attempt.plant.replaceAll('{CANARY}', attempt.canary);
  return variant === 'closing-tag' ? `${PLANTED_CLOSER}\n${text}` : text;
}
