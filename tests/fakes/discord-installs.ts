// biome-ignore lint/suspicious/noExplicitAny: Discord payloads are loose JSON; tests read the fields they need.
type Json = any;

/**
 * Where an app is installed and where its commands run, as Discord defines them; the fake Discord
 * (discord-server.ts) and fake-discord-installs.test.ts read this table.
 */
export const INSTALL_RULES = {
  /** `GUILD_INSTALL` 0, `USER_INSTALL` 1 (https://discord.com/developers/docs/resources/application#application-object-application-integration-types). */
  integrationTypes: [0, 1],
  /** `GUILD` 0, `BOT_DM` 1, `PRIVATE_CHANNEL` 2 (https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-object-interaction-context-types). */
  contexts: [0, 1, 2],
  /**
   * "A command's supported installation context(s) can be set using the `integration_types` field … as long as
   * any included contexts are already supported on the application-level"; "the `PRIVATE_CHANNEL` interaction
   * context can only be included in `contexts` if `USER_INSTALL` is included in `integration_types`"
   * (https://discord.com/developers/docs/interactions/application-commands#contexts; tutorials/developing-a-user-installable-app).
   * Unset, `integration_types` defaults to `[0]` and `contexts` to `[0, 1, 2]` (Bulk Overwrite … JSON Params).
   */
  defaults: { integrationTypes: [0], contexts: [0, 1, 2] },
  /**
   * "Apps are limited to 5 followup messages per interaction if it was initiated from a user-installed app and
   * isn't installed in the server"; past it, 40094 "This interaction has hit the maximum number of follow up
   * messages" (receiving-and-responding#create-followup-message; topics/opcodes-and-status-codes#json).
   */
  userInstallFollowUps: 5,
} as const;

/** Where a command is run: the bot's own server or DM, or a place only a person's install reaches. */
export type CommandPlace = 'guild' | 'bot-dm' | 'foreign-guild' | 'group-dm';

/** The field errors of a bulk overwrite's `integration_types` and `contexts`, for an app allowing `installTypes`. */
export function installErrors(body: Json[], installTypes: readonly number[]): Record<string, string> {
  const errors: Record<string, string> = {};
  body.forEach((command, i) => {
    const types: unknown = command.integration_types ?? INSTALL_RULES.defaults.integrationTypes;
    const contexts: unknown = command.contexts ?? INSTALL_RULES.defaults.contexts;
    if (!Array.isArray(types) || types.some((t) => !installTypes.includes(t)))
      errors[`${i}.integration_types`] = 'Installation context is not supported by the application.';
    if (
      !Array.isArray(contexts) ||
      contexts.some((c) => !(INSTALL_RULES.contexts as readonly number[]).includes(c))
    )
      errors[`${i}.contexts`] = 'Value is not a valid interaction context type.';
    else if (contexts.includes(2) && Array.isArray(types) && !types.includes(1))
      errors[`${i}.contexts`] = 'PRIVATE_CHANNEL requires the USER_INSTALL integration type.';
  });
  return errors;
}

/**
 * What an interaction from `place` says of where it came from: `context`, and `authorizing_integration_owners`
 * ("0": the guild id, or "0" in a DM with the bot; "1": the authorizing user's id), per
 * https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-object-authorizing-integration-owners-object.
 */
export function placeFields(place: CommandPlace, guildId: string | undefined, userId: string) {
  switch (place) {
    case 'guild':
      return { context: 0, authorizing_integration_owners: { 0: guildId } };
    case 'bot-dm':
      return { context: 1, authorizing_integration_owners: { 0: '0' } };
    case 'foreign-guild':
      return { context: 0, authorizing_integration_owners: { 1: userId } };
    case 'group-dm':
      return { context: 2, authorizing_integration_owners: { 1: userId } };
  }
}

/** Why Discord would not have let a person run `command` in `place` (a broken test), or undefined. */
export function unusableIn(command: Json, place: CommandPlace): string | undefined {
  const contexts: number[] = command.contexts ?? INSTALL_RULES.defaults.contexts;
  const types: number[] = command.integration_types ?? INSTALL_RULES.defaults.integrationTypes;
  const context = placeFields(place, undefined, '').context;
  if (!contexts.includes(context))
    return `/${command.name} is not registered for interaction context ${context}`;
  const userOnly = place === 'foreign-guild' || place === 'group-dm';
  if (userOnly && !types.includes(1)) return `/${command.name} is not registered for user installs`;
  return undefined;
}
