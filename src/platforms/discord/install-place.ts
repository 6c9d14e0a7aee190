import { ApplicationIntegrationType, type BaseInteraction, InteractionContextType } from 'discord.js';

/**
 * Follow-ups one interaction may have where the app is only user-installed: "Apps are limited to 5 followup
 * messages per interaction if it was initiated from a user-installed app and isn't installed in the server"
 * (https://discord.com/developers/docs/interactions/receiving-and-responding#create-followup-message).
 */
export const USER_INSTALL_FOLLOW_UPS = 5;
/** Messages an answer may take there: the response and two follow-ups, leaving room for the steps and approvals. */
export const USER_INSTALL_ANSWER_MESSAGES = 3;

/**
 * Whether the bot itself is where the interaction came from, so that it may post there with its own token:
 * not in a group DM or a DM between people (`PRIVATE_CHANNEL`), nor in a server it is not installed in (the
 * interaction is authorized for the user's install only: `authorizing_integration_owners` has `USER_INSTALL`
 * and no `GUILD_INSTALL`, https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-object-authorizing-integration-owners-object).
 * Everything then goes through the interaction: its response and follow-ups.
 */
export function botIsPresent(interaction: BaseInteraction): boolean {
  if (interaction.context === InteractionContextType.PrivateChannel) return false;
  if (interaction.context === InteractionContextType.BotDM) return true;
  const owners = interaction.authorizingIntegrationOwners.toJSON() as Partial<Record<number, string>>;
  const byUser = owners[ApplicationIntegrationType.UserInstall] !== undefined;
  const byGuild = owners[ApplicationIntegrationType.GuildInstall] !== undefined;
  return !(interaction.guildId && byUser && !byGuild);
}
