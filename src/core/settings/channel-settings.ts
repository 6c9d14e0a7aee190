/** Where a run's Thought/Action/Observation steps go: a thread, one message beside the answer, or nowhere. */
export type StepsPlacement = 'thread' | 'inline' | 'off';

/** The agent protocols a channel may pick. */
export type ProtocolName = 'tools' | 'react';

/** The settings `/settings` can change, in the order `show` lists them. */
export const SETTING_NAMES = ['prompt', 'model', 'protocol', 'tools', 'steps', 'follow'] as const;

/** One setting's name. */
export type SettingName = (typeof SETTING_NAMES)[number];

/** Valid `steps` values. */
export const STEPS_PLACEMENTS: readonly StepsPlacement[] = ['thread', 'inline', 'off'];

/** Valid `follow` values: whether the bot answers follow-ups in its threads without a mention. */
export const FOLLOW_VALUES = ['on', 'off'] as const;

/** Valid `protocol` values. */
export const PROTOCOL_NAMES: readonly ProtocolName[] = ['tools', 'react'];

/** The longest channel prompt. */
export const PROMPT_MAX_CHARS = 2000;

/** The settings in force in a channel: its own where it set them, the bot's defaults elsewhere. */
export interface SettingsInForce {
  /** The channel's extra system instruction; none by default. */
  prompt: string | undefined;
  model: string;
  protocol: ProtocolName;
  /** Built-in tool and MCP server names in force, or every tool. */
  tools: readonly string[] | 'all';
  steps: StepsPlacement;
  /** Whether follow-ups in the bot's threads are answered without a mention. */
  follow: boolean;
  /** The settings the channel set itself (the rest are defaults). */
  own: readonly SettingName[];
}

/** A `/settings` request: show them, forget one (or all), or set one. */
export type SettingsChange =
  | { action: 'show' }
  | { action: 'reset'; name?: SettingName | undefined }
  | { action: 'set'; name: SettingName; value: string };

/** How a `/settings` request ended; `message` says so in a sentence when nothing was saved. */
export type SettingsOutcome =
  | { status: 'shown' | 'saved' | 'reset'; settings: SettingsInForce; name?: SettingName | undefined }
  | { status: 'refused' | 'invalid'; message: string };

/** True for a known setting name. */
export function isSettingName(name: string): name is SettingName {
  return (SETTING_NAMES as readonly string[]).includes(name);
}
