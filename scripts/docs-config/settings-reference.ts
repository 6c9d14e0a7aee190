import { z } from 'zod';
import type { SettingGroup } from '../../src/config/setting-group.js';

/** One setting as the docs show it. */
export interface SettingDoc {
  key: string;
  /** The default as it would be written in `.env`; undefined when there is none (or it is empty). */
  default?: string;
  /** What unset means when there is no default (Markdown). */
  unset?: string;
  description: string;
  commented: boolean;
}

/** One group of settings as the docs show it. */
export interface GroupDoc {
  title: string;
  intro?: string;
  page?: string;
  settings: SettingDoc[];
}

/** The documentation of every setting, read from the schema; throws when a setting has no description. */
export function settingsReference(groups: readonly SettingGroup[]): GroupDoc[] {
  return groups.map((group) => ({
    title: group.title,
    intro: group.intro,
    page: group.page,
    settings: Object.entries(group.shape).map(([key, schema]) => {
      const meta = z.globalRegistry.get(schema);
      if (!meta?.description) {
        throw new Error(`${key} has no description: add .describe('…') to its schema entry in src/config/`);
      }
      const fallback = defaultOf(schema);
      return {
        key,
        default: fallback === undefined || fallback === '' ? undefined : String(fallback),
        unset: meta.unset,
        description: meta.description,
        commented: meta.commented === true,
      };
    }),
  }));
}

/** The value a setting takes when unset, before any transform; undefined without a default. */
function defaultOf(schema: z.core.$ZodType): unknown {
  if (schema instanceof z.ZodDefault) return schema.def.defaultValue;
  if (schema instanceof z.ZodPipe) return defaultOf(schema.in);
  return undefined;
}
