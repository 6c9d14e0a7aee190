import { isSettingName, SETTING_NAMES, type SettingsChange } from '../../core/settings/channel-settings.js';

/** How `/settings` is used, for a wrong subcommand. */
export const SETTINGS_USAGE =
  'Usage: /settings show | reset [setting] | prompt <text> | model <name> | protocol tools|react | ' +
  'tools <names…>|all | steps thread|inline|off | follow on|off | approvals [revoke <tool>|all]';

/** The arguments of `/settings approvals …` (see approvals-command.ts), or undefined for other settings text. */
export function approvalsArgs(text: string): string | undefined {
  const match = /^\s*approvals(?:\s+([\s\S]*))?$/i.exec(text);
  return match ? (match[1] ?? '').trim() : undefined;
}

/** Reads `/settings` text (`model gpt-4o`, `show`, …); a wrong subcommand gets the usage line. */
export function parseSettingsText(text: string): SettingsChange | { error: string } {
  const trimmed = text.trim();
  const match = /^(\S*)\s*([\s\S]*)$/.exec(trimmed);
  const word = (match?.[1] ?? '').toLowerCase();
  const rest = match?.[2] ?? '';
  if (word === '' || word === 'show') return { action: 'show' };
  if (word === 'reset') {
    const name = rest.trim().toLowerCase();
    if (!name) return { action: 'reset' };
    if (isSettingName(name)) return { action: 'reset', name };
    return { error: `Unknown setting “${rest.trim()}”; settings: ${SETTING_NAMES.join(', ')}.` };
  }
  if (isSettingName(word)) return { action: 'set', name: word, value: rest };
  return {
    error: `Unknown setting “${match?.[1] ?? ''}”; settings: ${SETTING_NAMES.join(', ')}. ${SETTINGS_USAGE}`,
  };
}
