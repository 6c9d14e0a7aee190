import {
  FOLLOW_VALUES,
  PROMPT_MAX_CHARS,
  PROTOCOL_NAMES,
  type SettingName,
  STEPS_PLACEMENTS,
} from './channel-settings.js';

/** What a value may be: the allowed models, and the tool and server names known now. */
export interface SettingChoices {
  models: readonly string[];
  tools: readonly string[];
}

/** A value checked for saving: the text to store (null: back to the default), or why it is refused. */
export type Checked = { ok: true; stored: string | null } | { ok: false; message: string };

const list = (values: readonly string[]) => values.join(', ') || '(none)';

/** Checks a `/settings <name> <value>`; refusals list what is valid. */
export function validateSetting(name: SettingName, raw: string, choices: SettingChoices): Checked {
  const value = raw.trim();
  switch (name) {
    case 'prompt':
      if (!value) return { ok: false, message: 'Give the instruction after `prompt`.' };
      if (value.length > PROMPT_MAX_CHARS) {
        return {
          ok: false,
          message: `That prompt is ${value.length.toLocaleString('en')} characters; the limit is ${PROMPT_MAX_CHARS.toLocaleString('en')}.`,
        };
      }
      return { ok: true, stored: value };
    case 'model':
      return choices.models.includes(value)
        ? { ok: true, stored: value }
        : { ok: false, message: `Unknown model “${value}”. Valid models: ${list(choices.models)}.` };
    case 'protocol':
      return oneOf(value.toLowerCase(), PROTOCOL_NAMES, 'protocol');
    case 'steps':
      return oneOf(value.toLowerCase(), STEPS_PLACEMENTS, 'steps');
    case 'follow':
      return oneOf(value.toLowerCase(), FOLLOW_VALUES, 'follow');
    case 'tools': {
      const names = [...new Set(value.split(/[\s,]+/).filter(Boolean))];
      if (names.length === 1 && names[0]!.toLowerCase() === 'all') return { ok: true, stored: null };
      const unknown = names.filter((n) => !choices.tools.includes(n));
      if (names.length === 0 || unknown.length > 0) {
        const what = names.length === 0 ? 'Name at least one tool' : `Unknown: ${unknown.join(', ')}`;
        return { ok: false, message: `${what}. Valid: ${list(choices.tools)}, or all.` };
      }
      return { ok: true, stored: names.join(' ') };
    }
  }
}

function oneOf(value: string, valid: readonly string[], name: string): Checked {
  return valid.includes(value)
    ? { ok: true, stored: value }
    : { ok: false, message: `Unknown ${name} “${value}”. Valid: ${list(valid)}.` };
}
