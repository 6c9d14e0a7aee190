import type { z } from 'zod';

declare module 'zod' {
  interface GlobalMeta {
    /** What an unset setting without a default means, in the docs' Default column. */
    unset?: string;
    /** `.env.example` shows the setting commented out even without a default (an image may set it). */
    commented?: boolean;
  }
}

/** Settings documented together: the settings reference's section and `.env.example`'s block. */
export interface SettingGroup<Shape extends z.ZodRawShape = z.ZodRawShape> {
  title: string;
  /** A few sentences (Markdown) on what the group is for. */
  intro?: string;
  /** The docs page that tells more, relative to docs/. */
  page?: string;
  shape: Shape;
}

/** A group of settings: each one's schema carries its description (`.describe()` / `.meta()`). */
export function settingGroup<Shape extends z.ZodRawShape>(group: SettingGroup<Shape>): SettingGroup<Shape> {
  return group;
}
