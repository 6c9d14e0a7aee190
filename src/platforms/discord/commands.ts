import {
  type Client,
  InteractionContextType,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
  SlashCommandBuilder,
} from 'discord.js';

/** Longest question `/ask` takes; Discord caps string options at 6,000. */
const QUESTION_MAX = 4000;

/** Where the commands can be used: servers and DMs with the bot. */
const CONTEXTS = [InteractionContextType.Guild, InteractionContextType.BotDM];

/** The slash commands: `/ask question:<text>`, `/reset`, `/memory`, `/usage`, `/tools`. */
export const COMMANDS: readonly RESTPostAPIChatInputApplicationCommandsJSONBody[] = [
  new SlashCommandBuilder()
    .setName('ask')
    .setDescription('Ask the bot a question; its reasoning goes into a thread.')
    .setContexts(CONTEXTS)
    .addStringOption((option) =>
      option.setName('question').setDescription('What to ask').setRequired(true).setMaxLength(QUESTION_MAX),
    )
    .toJSON(),
  new SlashCommandBuilder()
    .setName('reset')
    .setDescription('Make the bot forget this channel’s conversation.')
    .setContexts(CONTEXTS)
    .toJSON(),
  new SlashCommandBuilder()
    .setName('memory')
    .setDescription('Show what the bot remembers of this channel.')
    .setContexts(CONTEXTS)
    .toJSON(),
  new SlashCommandBuilder()
    .setName('usage')
    .setDescription('Show your and this channel’s usage of the bot, today and this month.')
    .setContexts(CONTEXTS)
    .toJSON(),
  new SlashCommandBuilder()
    .setName('tools')
    .setDescription('List the tools the bot can use, and the state of its MCP servers.')
    .setContexts(CONTEXTS)
    .toJSON(),
];

/**
 * Registers the slash commands, replacing any older set: in one guild when `guildId` is given (instant,
 * for development), else globally (may take a while to show up everywhere).
 */
export async function registerCommands(client: Client<true>, guildId: string | undefined): Promise<void> {
  const commands = [...COMMANDS];
  await (guildId
    ? client.application.commands.set(commands, guildId)
    : client.application.commands.set(commands));
}
