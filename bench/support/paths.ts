import { fileURLToPath } from 'node:url';

/** The repository's prompts folder. */
export const PROMPTS_DIR = fileURLToPath(new URL('../../prompts', import.meta.url));
/** The repository root. */
export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
