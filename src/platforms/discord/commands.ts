import {
  ApplicationIntegrationType,
  type Client,
  InteractionContextType,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
  SlashCommandBuilder,
} from 'discord.js';
import {
  FOLLOW_VALUES,
  PROMPT_MAX_CHARS,
  PROTOCOL_NAMES,
  SETTING_NAMES,
  STEPS_PLACEMENTS,
} from '../../core/settings/channel-settings.js';
import { MAX_NOTE_CHARS } from '../../core/tools/remember.js';
import { SCHEDULE_COMMAND } from './schedule-command.js';

/** Longest question `/ask` takes; Discord caps string options at 6,000. */
const QUESTION_MAX = 4000;

/** Where the commands can be used: servers and DMs with the bot. */
const CONTEXTS = [InteractionContextType.Guild, InteractionContextType.BotDM];
/** Installed to a server only: the commands that change a channel's settings, memory or schedules. */
const GUILD_INSTALL = [ApplicationIntegrationType.GuildInstall];
/**
 * `/ask` and the read-only commands can also be installed by a person on their own account (user install) and
 * used anywhere, group DMs included (`PRIVATE_CHANNEL`, "only meaningful for commands installed to a user":
 * https://discord.com/developers/docs/interactions/application-commands#interaction-contexts).
 */
const ANYWHERE = [...CONTEXTS, InteractionContextType.PrivateChannel];
const ANY_INSTALL = [ApplicationIntegrationType.GuildInstall, ApplicationIntegrationType.UserInstall];

/** The option holding the new value of each `/settings` subcommand that sets something. */
export const SETTINGS_OPTIONS = {
  prompt: 'text',
  model: 'name',
  protocol: 'name',
  tools: 'names',
  steps: 'where',
  follow: 'state',
} as const;

/** The options of `/knowledge`. */
export const KNOWLEDGE_OPTIONS = { action: 'action', file: 'file' } as const;

/** The option of `/settings approvals` naming the grant to revoke. */
export const APPROVALS_REVOKE_OPTION = 'revoke';

/** The option of `/settings reset` naming the one setting to reset. */
export const RESET_OPTION = 'setting';

const choices = (values: readonly string[]) => values.map((v) => ({ name: v, value: v }));

/** `/settings show|reset|prompt|model|protocol|tools|steps|follow|approvals` (admins only; the bot checks). */
const SETTINGS = new SlashCommandBuilder()
  .setName('settings')
  .setDescription('See or change this channel’s settings (admins only).')
  .setIntegrationTypes(GUILD_INSTALL)
  .setContexts(CONTEXTS)
  .addSubcommand((c) => c.setName('show').setDescription('Show the settings in force in this channel.'))
  .addSubcommand((c) =>
    c
      .setName('reset')
      .setDescription('Put this channel’s settings back to default: all, or only the one named.')
      .addStringOption((o) =>
        o
          .setName(RESET_OPTION)
          .setDescription('The one setting to reset; every setting when left out')
          .addChoices(...choices(SETTING_NAMES)),
      ),
  )
  .addSubcommand((c) =>
    c
      .setName('prompt')
      .setDescription('An extra instruction the bot follows in this channel.')
      .addStringOption((o) =>
        o
          .setName(SETTINGS_OPTIONS.prompt)
          .setDescription('The instruction')
          .setRequired(true)
          .setMaxLength(PROMPT_MAX_CHARS),
      ),
  )
  .addSubcommand((c) =>
    c
      .setName('model')
      .setDescription('The model that answers in this channel.')
      .addStringOption((o) =>
        o.setName(SETTINGS_OPTIONS.model).setDescription('Model name').setRequired(true),
      ),
  )
  .addSubcommand((c) =>
    c
      .setName('protocol')
      .setDescription('How the model calls tools: native tool calls, or ReAct text.')
      .addStringOption((o) =>
        o
          .setName(SETTINGS_OPTIONS.protocol)
          .setDescription('tools or react')
          .setRequired(true)
          .addChoices(...choices(PROTOCOL_NAMES)),
      ),
  )
  .addSubcommand((c) =>
    c
      .setName('tools')
      .setDescription('The tools in force here: tool and MCP server names, or all.')
      .addStringOption((o) =>
        o
          .setName(SETTINGS_OPTIONS.tools)
          .setDescription('Names separated by spaces, or all')
          .setRequired(true),
      ),
  )
  .addSubcommand((c) =>
    c
      .setName('steps')
      .setDescription('Where the reasoning steps go: a thread, one message, or nowhere.')
      .addStringOption((o) =>
        o
          .setName(SETTINGS_OPTIONS.steps)
          .setDescription('thread, inline or off')
          .setRequired(true)
          .addChoices(...choices(STEPS_PLACEMENTS)),
      ),
  )
  .addSubcommand((c) =>
    c
      .setName('follow')
      .setDescription('Whether follow-ups in the bot’s threads are answered without a mention.')
      .addStringOption((o) =>
        o
          .setName(SETTINGS_OPTIONS.follow)
          .setDescription('on or off')
          .setRequired(true)
          .addChoices(...choices(FOLLOW_VALUES)),
      ),
  )
  .addSubcommand((c) =>
    c
      .setName('approvals')
      .setDescription('The tools that ask before they run here; revoke one approved once (or all).')
      .addStringOption((o) =>
        o
          .setName(APPROVALS_REVOKE_OPTION)
          .setDescription('A tool name, or all, to make ask again here')
          .setMaxLength(100),
      ),
  )
  .toJSON();

/** The options of `/memory`; with none it shows what the bot remembers of the channel, as it always has. */
export const MEMORY_OPTIONS = {
  action: 'action',
  text: 'text',
  number: 'number',
  everywhere: 'everywhere',
  person: 'person',
} as const;

/** What `/memory action:` can do besides the plain report. */
export const MEMORY_ACTIONS = ['notes', 'remember', 'forget', 'promote', 'demote', 'forget-me'] as const;

/**
 * `/memory [action] [text] [number] [everywhere] [person]`: options, not subcommands, because a command
 * with subcommands cannot be run bare, and plain `/memory` keeps showing the channel's memory.
 */
const MEMORY = new SlashCommandBuilder()
  .setName('memory')
  .setDescription('Show what the bot remembers of this channel; list, add or remove notes; forget you.')
  .setIntegrationTypes(GUILD_INSTALL)
  .setContexts(CONTEXTS)
  .addStringOption((o) =>
    o
      .setName(MEMORY_OPTIONS.action)
      .setDescription('notes, remember, forget, promote, demote or forget-me; the report when left out')
      .addChoices(...choices(MEMORY_ACTIONS)),
  )
  .addStringOption((o) =>
    o
      .setName(MEMORY_OPTIONS.text)
      .setDescription('remember: the note ("me: …" for one about you)')
      .setMaxLength(MAX_NOTE_CHARS + 4),
  )
  .addIntegerOption((o) =>
    o
      .setName(MEMORY_OPTIONS.number)
      .setDescription('forget, promote, demote: the note’s number in the notes list')
      .setMinValue(1),
  )
  .addBooleanOption((o) =>
    o
      .setName(MEMORY_OPTIONS.everywhere)
      .setDescription('forget-me: in every channel; remember: a note about you that follows you'),
  )
  .addUserOption((o) =>
    o.setName(MEMORY_OPTIONS.person).setDescription('forget-me: the person to forget (admins only)'),
  )
  .toJSON();

/** The slash commands: `/ask question:<text>`, `/reset`, `/memory`, `/usage`, `/tools`, `/settings …`, `/schedule …`. */
export const COMMANDS: readonly RESTPostAPIChatInputApplicationCommandsJSONBody[] = [
  new SlashCommandBuilder()
    .setName('ask')
    .setDescription('Ask the bot a question; its reasoning goes into a thread.')
    .setIntegrationTypes(ANY_INSTALL)
    .setContexts(ANYWHERE)
    .addStringOption((option) =>
      option.setName('question').setDescription('What to ask').setRequired(true).setMaxLength(QUESTION_MAX),
    )
    .toJSON(),
  new SlashCommandBuilder()
    .setName('reset')
    .setDescription('Make the bot forget this channel’s conversation.')
    .setIntegrationTypes(GUILD_INSTALL)
    .setContexts(CONTEXTS)
    .toJSON(),
  MEMORY,
  new SlashCommandBuilder()
    .setName('usage')
    .setDescription('Show your and this channel’s usage of the bot, today and this month.')
    .setIntegrationTypes(ANY_INSTALL)
    .setContexts(ANYWHERE)
    .toJSON(),
  new SlashCommandBuilder()
    .setName('tools')
    .setDescription('List the tools in force in this channel, and the state of the MCP servers.')
    .setIntegrationTypes(ANY_INSTALL)
    .setContexts(ANYWHERE)
    .toJSON(),
  SETTINGS,
  { ...SCHEDULE_COMMAND, integration_types: GUILD_INSTALL },
  new SlashCommandBuilder()
    .setName('knowledge')
    .setDescription('The files shared here that the bot can search; forget one (its sharer or an admin).')
    .setIntegrationTypes(GUILD_INSTALL)
    .setContexts(CONTEXTS)
    .addStringOption((o) =>
      o
        .setName(KNOWLEDGE_OPTIONS.action)
        .setDescription('list (default) or forget')
        .addChoices(...choices(['list', 'forget'])),
    )
    .addStringOption((o) =>
      o
        .setName(KNOWLEDGE_OPTIONS.file)
        .setDescription('The file to forget, as /knowledge lists it')
        .setMaxLength(500),
    )
    .toJSON(),
];

/** The commands as an app without user install takes them: installed to servers, used in servers and its DMs. */
export function guildInstallOnly(
  commands: readonly RESTPostAPIChatInputApplicationCommandsJSONBody[],
): RESTPostAPIChatInputApplicationCommandsJSONBody[] {
  return commands.map((command) => ({ ...command, integration_types: GUILD_INSTALL, contexts: CONTEXTS }));
}

/**
 * The commands as one guild's (DISCORD_GUILD_ID) take them: `integration_types` and `contexts` are "only for
 * globally-scoped commands", and "Guild commands don't support the `BOT_DM` interaction context"
 * (https://discord.com/developers/docs/interactions/application-commands#application-command-object).
 */
function forOneGuild(
  commands: readonly RESTPostAPIChatInputApplicationCommandsJSONBody[],
): RESTPostAPIChatInputApplicationCommandsJSONBody[] {
  return commands.map(({ integration_types: _, contexts: __, ...command }) => command);
}

/** Whether Discord refused commands for an installation context the app does not support (50035 on `integration_types`). */
function userInstallRefused(err: unknown): boolean {
  const { code, rawError } = err as { code?: unknown; rawError?: unknown };
  return code === 50035 && JSON.stringify(rawError ?? {}).includes('integration_types');
}

/**
 * Registers the slash commands, replacing any older set: in one guild when `guildId` is given (instant,
 * for development), else globally (may take a while to show up everywhere). An app whose developer portal
 * does not allow user install gets the commands for servers only; `onNoUserInstall` says so.
 */
export async function registerCommands(
  client: Client<true>,
  guildId: string | undefined,
  onNoUserInstall: () => void = () => {},
): Promise<void> {
  if (guildId) {
    await client.application.commands.set(forOneGuild(COMMANDS), guildId);
    return;
  }
  try {
    await client.application.commands.set([...COMMANDS]);
  } catch (err) {
    if (!userInstallRefused(err)) throw err;
    onNoUserInstall();
    await client.application.commands.set(guildInstallOnly(COMMANDS));
  }
}
