import type { Assistant } from '../../core/assistant.js';

/**
 * Whether a surface that shows steps beside the answer (terminal, web chat) shows them for `key`:
 * `/settings steps off` hides them; `thread` and `inline` look the same there. Unreadable settings show them.
 */
export async function stepsShown(assistant: Assistant, key: string): Promise<boolean> {
  try {
    return (await assistant.settingsIn(key)).steps !== 'off';
  } catch {
    return true;
  }
}
