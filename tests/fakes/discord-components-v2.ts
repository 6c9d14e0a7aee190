// biome-ignore lint/suspicious/noExplicitAny: Discord payloads are loose JSON; tests read the fields they need.
type Json = any;

/**
 * Components v2 as Discord defines them; the fake Discord (discord-server.ts) and
 * fake-discord-components-v2.test.ts read this table.
 */
export const COMPONENTS_V2_RULES = {
  /** Message flag `IS_COMPONENTS_V2` 1 << 15 (https://discord.com/developers/docs/resources/message#message-object-message-flags). */
  flag: 1 << 15,
  /**
   * "Messages allow up to 40 total components", nested ones counted
   * (https://discord.com/developers/docs/components/reference#component-object).
   */
  components: 40,
  /**
   * At most 4,000 characters of text across all the text displays of a message
   * (https://discord.com/developers/docs/components/reference#text-display;
   * https://discord.com/developers/docs/components/using-message-components).
   */
  text: 4_000,
  /**
   * With the flag, "the content and embeds fields will no longer work" (polls and stickers neither); sending
   * them is refused with 50035 (https://discord.com/developers/docs/components/using-message-components).
   */
  legacyFields: ['content', 'embeds', 'poll', 'sticker_ids'],
  /** Action Row 1 is the only top-level type of a classic message; the layout types need the flag (same page). */
  classicTopLevel: 1,
} as const;

/** Every component of a message, nested ones (container children, a section's accessory) included. */
function allComponents(components: Json[]): Json[] {
  return components.flatMap((c) => [
    c,
    ...allComponents(Array.isArray(c?.components) ? c.components : []),
    ...(c?.accessory ? [c.accessory] : []),
  ]);
}

/** What a message body breaks of the components v2 rules, given the flags it is (or was) sent with. */
export function componentsV2Errors(body: Json, flags: number, prefix = ''): Record<string, string> {
  const errors: Record<string, string> = {};
  const rules = COMPONENTS_V2_RULES;
  const top: Json[] = Array.isArray(body?.components) ? body.components : [];
  if (!(flags & rules.flag)) {
    top.forEach((c, i) => {
      if (c?.type !== rules.classicTopLevel)
        errors[`${prefix}components.${i}.type`] = 'Components of this type need the IS_COMPONENTS_V2 flag.';
    });
    return errors;
  }
  for (const field of rules.legacyFields) {
    const value = body?.[field];
    const used = Array.isArray(value)
      ? value.length > 0
      : value !== undefined && value !== null && value !== '';
    if (used)
      errors[`${prefix}${field}`] =
        `The '${field}' field cannot be used when using MessageFlags.IS_COMPONENTS_V2`;
  }
  const all = allComponents(top);
  if (all.length > rules.components)
    errors[`${prefix}components`] = `Must be ${rules.components} or fewer in total, nested included.`;
  const text = all.filter((c) => c?.type === 10).reduce((sum, c) => sum + String(c.content ?? '').length, 0);
  if (text > rules.text)
    errors[`${prefix}components`] = `Text displays must be ${rules.text} or fewer characters in total.`;
  return errors;
}
