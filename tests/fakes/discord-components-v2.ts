// biome-ignore lint/suspicious/noExplicitAny: Discord payloads are loose JSON; tests read the fields they need.
type Json = any;

/**
 * Components as Discord defines them (classic and v2); the fake Discord (discord-server.ts) and
 * fake-discord-components-v2.test.ts read this table.
 */
export const COMPONENTS_V2_RULES = {
  /** Message flag `IS_COMPONENTS_V2` 1 << 15 (https://discord.com/developers/docs/resources/message#message-object-message-flags). */
  flag: 1 << 15,
  /**
   * "Messages allow up to 40 total components", nested ones counted (https://discord.com/developers/docs/components/reference, top of the page; the
   * change log of April 29, 2025, "Raised Component Limits": "The limit for total components in a message has
   * been increased to 40").
   */
  components: 40,
  /**
   * At most 4,000 characters across all the text displays of a message: "The character count of all text
   * display components in a message may total up to 4000 characters" (discord-api-docs PR #8562, documenting
   * what the API enforces; the 2,000 of `content` do not apply to a text display).
   */
  text: 4_000,
  /**
   * With the flag, "the content and embeds fields will no longer work" (polls and stickers neither); sending
   * them is refused with 50035 (https://discord.com/developers/docs/components/using-message-components).
   */
  legacyFields: ['content', 'embeds', 'poll', 'sticker_ids'],
  /** Action Row 1 is the only top-level type of a classic message; the layout types need the flag (same page). */
  classicTopLevel: 1,
  /**
   * What may sit where (https://discord.com/developers/docs/components/reference, Component Types and each layout's "Child Components"): top level,
   * Action Row 1, Section 9, Text Display 10, Media Gallery 12, File 13, Separator 14, Container 17; a
   * container holds the same but no container; a section holds one to three text displays and one
   * accessory, a button 2 or a thumbnail 11.
   */
  topLevel: [1, 9, 10, 12, 13, 14, 17],
  containerChildren: [1, 9, 10, 12, 13, 14],
  sectionTexts: { min: 1, max: 3 },
  sectionAccessories: [2, 11],
  /** An Action Row holds "Up to 5 interactive button components or a single select component" (same page, #action-row). */
  rowButtons: 5,
  /** Separator `spacing`: "`1` for small padding, `2` for large padding"; `divider` a boolean (#separator). */
  separatorSpacing: [1, 2],
  /**
   * `custom_id`: "a string of 1 to 100 characters", "must be unique per component. Multiple components on the
   * same message must not share the same `custom_id`" (#anatomy-of-a-component-custom-id); every button but a
   * link (style 5) or premium (style 6) one has one (#button). A button's label: "max 80 characters".
   */
  customId: 100,
  buttonLabel: 80,
  unCustomButtonStyles: [5, 6],
} as const;

/** Every component of a message with its path, nested ones (container and row children, a section's accessory) included. */
function allComponents(components: Json[], path: string): [Json, string][] {
  return components.flatMap((c, i): [Json, string][] => [
    [c, `${path}.${i}`],
    ...allComponents(Array.isArray(c?.components) ? c.components : [], `${path}.${i}.components`),
    ...(c?.accessory ? ([[c.accessory, `${path}.${i}.accessory`]] as [Json, string][]) : []),
  ]);
}

/** What one component breaks of the shapes above (its children's types, counts and fields). */
function shapeErrors(c: Json, at: string, errors: Record<string, string>): void {
  const rules = COMPONENTS_V2_RULES;
  const children: Json[] = Array.isArray(c?.components) ? c.components : [];
  const types = children.map((child) => child?.type);
  switch (c?.type) {
    case 17:
      if (types.some((t) => !(rules.containerChildren as readonly number[]).includes(t)))
        errors[`${at}.components`] =
          'A container holds action rows, sections, text, media, files and separators.';
      break;
    case 9:
      if (
        types.length < rules.sectionTexts.min ||
        types.length > rules.sectionTexts.max ||
        types.some((t) => t !== 10)
      )
        errors[`${at}.components`] = 'A section holds one to three text displays.';
      if (!(rules.sectionAccessories as readonly number[]).includes(c.accessory?.type))
        errors[`${at}.accessory`] = 'A section needs a button or thumbnail accessory.';
      break;
    case 1: {
      const buttons = types.filter((t) => t === 2).length;
      const selects = types.filter((t) => [3, 5, 6, 7, 8].includes(t)).length;
      const fits =
        (buttons > 0 && selects === 0 && buttons <= rules.rowButtons) || (buttons === 0 && selects === 1);
      if (!fits || buttons + selects !== types.length)
        errors[`${at}.components`] = `An action row holds 1 to ${rules.rowButtons} buttons or one select.`;
      break;
    }
    case 10:
      if (typeof c.content !== 'string') errors[`${at}.content`] = 'A text display needs its content.';
      break;
    case 14:
      if (c.spacing !== undefined && !(rules.separatorSpacing as readonly number[]).includes(c.spacing))
        errors[`${at}.spacing`] = 'Spacing is 1 or 2.';
      if (c.divider !== undefined && typeof c.divider !== 'boolean') errors[`${at}.divider`] = 'A boolean.';
      break;
    case 2:
      if (typeof c.label === 'string' && c.label.length > rules.buttonLabel)
        errors[`${at}.label`] = `Must be ${rules.buttonLabel} or fewer in length.`;
      break;
  }
}

/**
 * What a message body breaks of the component rules, given the flags it is (or was) sent with: custom ids
 * (length, one per interactive component, unique in the message) always; the components v2 rules with the
 * flag, and layout types refused without it.
 */
export function componentsV2Errors(body: Json, flags: number, prefix = ''): Record<string, string> {
  const errors: Record<string, string> = {};
  const rules = COMPONENTS_V2_RULES;
  const top: Json[] = Array.isArray(body?.components) ? body.components : [];
  const all = allComponents(top, `${prefix}components`);
  const seen = new Set<string>();
  for (const [c, at] of all) {
    const interactive =
      [3, 5, 6, 7, 8].includes(c?.type) ||
      (c?.type === 2 && !(rules.unCustomButtonStyles as readonly number[]).includes(c.style));
    if (!interactive) continue;
    const id = c.custom_id;
    if (typeof id !== 'string' || id.length === 0 || id.length > rules.customId)
      errors[`${at}.custom_id`] = `Must be between 1 and ${rules.customId} in length.`;
    else if (seen.has(id)) errors[`${at}.custom_id`] = 'Component custom id cannot be duplicated';
    else seen.add(id);
  }
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
  top.forEach((c, i) => {
    if (!(rules.topLevel as readonly number[]).includes(c?.type))
      errors[`${prefix}components.${i}.type`] = 'This component cannot be at the top level of a message.';
  });
  for (const [c, at] of all) shapeErrors(c, at, errors);
  if (all.length > rules.components)
    errors[`${prefix}components`] = `Must be ${rules.components} or fewer in total, nested included.`;
  const text = all
    .filter(([c]) => c?.type === 10)
    .reduce((sum, [c]) => sum + String(c.content ?? '').length, 0);
  if (text > rules.text)
    errors[`${prefix}components`] = `Text displays must be ${rules.text} or fewer characters in total.`;
  return errors;
}
