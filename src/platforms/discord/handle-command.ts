import { type ChatInputCommandInteraction, MessageFlags } from 'discord.js';
import { isSettingName, type SettingsChange } from '../../core/settings/channel-settings.js';
import { formatSettingsOutcome } from '../shared/format-settings.js';
import { formatToolsReport } from '../shared/format-tools.js';
import { formatUsageReport } from '../shared/format-usage.js';
import { splitMessage } from '../shared/split-message.js';
import { WORDING } from '../shared/wording.js';
import type { DiscordContext } from './answer.js';
import { interactionAsker } from './asker.js';
import { APPROVALS_REVOKE_OPTION, KNOWLEDGE_OPTIONS, RESET_OPTION, SETTINGS_OPTIONS } from './commands.js';
import { conversationKey, settingsKeyOf } from './conversation.js';
import { handleAsk } from './handle-ask.js';
import { MESSAGE_LIMIT, NO_PINGS } from './limits.js';
import { memoryReply } from './memory-command.js';
import { scheduleReply } from './schedule-command.js';

/**
 * Handles `/ask`, `/reset`, `/memory [action …]`, `/usage`, `/tools` and `/settings`; each is acknowledged first, as
 * Discord allows only 3 s. In a thread or forum post, `/settings` acts on its parent channel's settings.
 */
export async function handleCommand(
  interaction: ChatInputCommandInteraction,
  ctx: DiscordContext,
): Promise<void> {
  const key = conversationKey(interaction.guildId, interaction.channelId);
  const settingsKey = settingsKeyOf(interaction.guildId, interaction.channelId, interaction.channel);
  switch (interaction.commandName) {
    case 'ask':
      await handleAsk(interaction, ctx, key, settingsKey);
      return;
    case 'reset':
      await privately(interaction, ctx, async () => {
        await ctx.assistant.reset(key);
        return `I have forgotten our conversation in this ${place(interaction)}.`;
      });
      return;
    case 'usage':
      await privately(interaction, ctx, async () =>
        formatUsageReport(await ctx.assistant.usage(interactionAsker(interaction), key)),
      );
      return;
    case 'memory':
      await privately(interaction, ctx, () => memoryReply(interaction, ctx.assistant, key, settingsKey));
      return;
    case 'tools':
      await privately(interaction, ctx, async () =>
        formatToolsReport(await ctx.assistant.toolsIn(settingsKey)),
      );
      return;
    case 'settings':
      if (interaction.options.getSubcommand(false) === 'approvals' && ctx.assistant.approvalsCommand) {
        const run = ctx.assistant.approvalsCommand;
        const revoke = interaction.options.getString(APPROVALS_REVOKE_OPTION);
        await privately(interaction, ctx, () =>
          run(interactionAsker(interaction), settingsKey, revoke ? `revoke ${revoke}` : ''),
        );
        return;
      }
      await privately(interaction, ctx, async () =>
        formatSettingsOutcome(
          await ctx.assistant.settings(
            interactionAsker(interaction),
            settingsKey,
            settingsChange(interaction),
          ),
        ),
      );
      return;
    case 'knowledge': {
      const run = ctx.assistant.knowledgeCommand;
      const action = interaction.options.getString(KNOWLEDGE_OPTIONS.action) ?? 'list';
      const file = interaction.options.getString(KNOWLEDGE_OPTIONS.file) ?? '';
      await privately(interaction, ctx, async () =>
        run
          ? run(interactionAsker(interaction), settingsKey, `${action} ${file}`)
          : 'No documents or shared files are kept by this bot.',
      );
      return;
    }
    case 'schedule':
      await privately(interaction, ctx, () => scheduleReply(interaction, ctx.assistant, key, settingsKey));
      return;
    default:
      await interaction.reply({ content: 'Unknown command.', flags: MessageFlags.Ephemeral });
  }
}

/** Defers an ephemeral reply, then shows what `work` returns (or a short failure) only to the caller. */
async function privately(
  interaction: ChatInputCommandInteraction,
  ctx: DiscordContext,
  work: () => Promise<string>,
): Promise<void> {
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  let text: string;
  try {
    text = await work();
  } catch (err) {
    ctx.logger.error({ err, command: interaction.commandName }, 'command failed');
    text = `⚠️ ${WORDING.commandFailed}`;
  }
  const [first, ...rest] = splitMessage(text, MESSAGE_LIMIT);
  await interaction.editReply({ content: first, allowedMentions: NO_PINGS });
  for (const part of rest) {
    await interaction.followUp({ content: part, flags: MessageFlags.Ephemeral, allowedMentions: NO_PINGS });
  }
}

/** The `/settings` subcommand as a change; Discord has already checked that its option is there. */
function settingsChange(interaction: ChatInputCommandInteraction): SettingsChange {
  const name = interaction.options.getSubcommand(true);
  if (name === 'show') return { action: 'show' };
  if (name === 'reset') {
    const only = interaction.options.getString(RESET_OPTION) ?? '';
    return { action: 'reset', name: isSettingName(only) ? only : undefined };
  }
  const option = SETTINGS_OPTIONS[name as keyof typeof SETTINGS_OPTIONS];
  if (!option) return { action: 'show' };
  return {
    action: 'set',
    name: name as keyof typeof SETTINGS_OPTIONS,
    value: interaction.options.getString(option, true),
  };
}

function place(interaction: ChatInputCommandInteraction): string {
  if (!interaction.inGuild()) return 'DM';
  return interaction.channel?.isThread() ? 'thread' : 'channel';
}
