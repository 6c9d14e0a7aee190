import type { SettingName, SettingsInForce, SettingsOutcome } from '../../core/settings/channel-settings.js';

/** The settings in force, one line each, the channel's own marked apart from the defaults. */
export function formatSettings(settings: SettingsInForce): string {
  const mark = (name: SettingName) => (settings.own.includes(name) ? '' : ' (default)');
  return [
    `Prompt${mark('prompt')}: ${settings.prompt ?? 'none'}`,
    `Model${mark('model')}: ${settings.model}`,
    `Protocol${mark('protocol')}: ${settings.protocol}`,
    `Tools${mark('tools')}: ${settings.tools === 'all' ? 'all' : settings.tools.join(', ')}`,
    `Steps${mark('steps')}: ${settings.steps}`,
    `Follow threads${mark('follow')}: ${settings.follow ? 'on' : 'off'}`,
  ].join('\n');
}

/** The reply to `/settings` as plain text. */
export function formatSettingsOutcome(outcome: SettingsOutcome): string {
  switch (outcome.status) {
    case 'refused':
    case 'invalid':
      return outcome.message;
    case 'shown':
      return `Settings of this channel:\n${formatSettings(outcome.settings)}`;
    case 'reset':
      return outcome.name
        ? `${outcome.name} is back to its default. Settings of this channel now:\n${formatSettings(outcome.settings)}`
        : `Settings of this channel are back to the defaults:\n${formatSettings(outcome.settings)}`;
    case 'saved':
      return `Saved${outcome.name ? ` ${outcome.name}` : ''}. Settings of this channel now:\n${formatSettings(outcome.settings)}`;
  }
}
