import type { Logger } from '../logger.js';
import type { ChannelSettingsStore, StoredSettings } from '../ports/channel-settings-store.js';
import type { ToolGroup } from '../ports/tool-source.js';
import {
  FOLLOW_VALUES,
  PROMPT_MAX_CHARS,
  PROTOCOL_NAMES,
  type ProtocolName,
  SETTING_NAMES,
  type SettingName,
  type SettingsChange,
  type SettingsInForce,
  type SettingsOutcome,
  STEPS_PLACEMENTS,
  type StepsPlacement,
} from './channel-settings.js';
import { toolSettingNames } from './select-tools.js';
import { validateSetting } from './validate-setting.js';

/** What the settings service needs. */
export interface SettingsServiceDeps {
  store: ChannelSettingsStore;
  /** The bot's defaults: LLM_MODEL, AGENT_PROTOCOL and FOLLOW_THREADS. */
  defaults: { model: string; protocol: ProtocolName; follow: boolean };
  /** LLM_MODELS: the models a channel may pick (the default is always one). */
  models: readonly string[];
  /** The tool groups now, whose names the `tools` setting may use. */
  groups: () => readonly ToolGroup[];
  logger?: Logger | undefined;
}

/** Reads and changes per-channel settings (admin checks are the caller's). */
export interface SettingsService {
  /** The settings in force under `key`. */
  inForce(key: string): Promise<SettingsInForce>;
  /** Shows, resets or sets; an invalid value saves nothing and says what is valid. */
  change(key: string, change: SettingsChange): Promise<Exclude<SettingsOutcome, { status: 'refused' }>>;
}

/** Creates the settings service over the store. */
export function createSettingsService(deps: SettingsServiceDeps): SettingsService {
  const { store, defaults, logger } = deps;
  const models = [...new Set([defaults.model, ...deps.models])];

  /** Saved values that are no longer valid (e.g. a model taken off LLM_MODELS) fall back to the default. */
  function decode(key: string, saved: StoredSettings): SettingsInForce {
    const own: SettingName[] = [];
    const pick = <T extends string>(name: SettingName, valid: readonly T[] | undefined): T | undefined => {
      const value = saved[name];
      if (value === undefined) return undefined;
      if (valid && !valid.includes(value as T)) {
        logger?.warn({ key, setting: name }, 'a saved channel setting is no longer valid; using the default');
        return undefined;
      }
      own.push(name);
      return value as T;
    };
    const prompt = pick<string>('prompt', undefined)?.slice(0, PROMPT_MAX_CHARS);
    const model = pick('model', models) ?? defaults.model;
    const protocol = pick<ProtocolName>('protocol', PROTOCOL_NAMES) ?? defaults.protocol;
    const tools = pick<string>('tools', undefined)?.split(' ').filter(Boolean) ?? 'all';
    const steps = pick<StepsPlacement>('steps', STEPS_PLACEMENTS) ?? 'thread';
    const followed = pick('follow', FOLLOW_VALUES);
    const follow = followed === undefined ? defaults.follow : followed === 'on';
    const mine = SETTING_NAMES.filter((n) => own.includes(n));
    return { prompt, model, protocol, tools, steps, follow, own: mine };
  }

  const inForce = async (key: string) => decode(key, await store.getSettings(key));

  return {
    inForce,
    async change(key, change) {
      switch (change.action) {
        case 'show':
          return { status: 'shown', settings: await inForce(key) };
        case 'reset':
          await store.resetSettings(key, change.name ? [change.name] : undefined);
          return { status: 'reset', name: change.name, settings: await inForce(key) };
        case 'set': {
          const checked = validateSetting(change.name, change.value, {
            models,
            tools: toolSettingNames(deps.groups()),
          });
          if (!checked.ok) return { status: 'invalid', message: checked.message };
          if (checked.stored === null) await store.resetSettings(key, [change.name]);
          else await store.setSettings(key, { [change.name]: checked.stored });
          return { status: 'saved', name: change.name, settings: await inForce(key) };
        }
      }
    },
  };
}
