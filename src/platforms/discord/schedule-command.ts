import {
  type ChatInputCommandInteraction,
  InteractionContextType,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
  SlashCommandBuilder,
} from 'discord.js';
import type { Assistant } from '../../core/assistant.js';
import { MAX_QUESTION_CHARS } from '../../core/schedules/schedule-service.js';
import { interactionAsker } from './asker.js';
import { displayName } from './conversation.js';

/** `/schedule list|cancel id|add when question`: scheduled questions of this channel and of the caller. */
export const SCHEDULE_COMMAND: RESTPostAPIChatInputApplicationCommandsJSONBody = new SlashCommandBuilder()
  .setName('schedule')
  .setDescription('Reminders and recurring questions: list, add or cancel them.')
  .setContexts([InteractionContextType.Guild, InteractionContextType.BotDM])
  .addSubcommand((c) => c.setName('list').setDescription('This channel’s scheduled questions, and yours.'))
  .addSubcommand((c) =>
    c
      .setName('cancel')
      .setDescription('Cancel a scheduled question (yours, or any for admins).')
      .addStringOption((o) =>
        o.setName('id').setDescription('Its id, from /schedule list').setRequired(true),
      ),
  )
  .addSubcommand((c) =>
    c
      .setName('add')
      .setDescription('Ask a question later here: once, or on a cron expression.')
      .addStringOption((o) =>
        o
          .setName('when')
          .setDescription('2026-12-04T09:00, "in 2 hours", or cron such as 0 9 * * 1')
          .setRequired(true)
          .setMaxLength(100),
      )
      .addStringOption((o) =>
        o
          .setName('question')
          .setDescription('What to ask then')
          .setRequired(true)
          .setMaxLength(MAX_QUESTION_CHARS),
      ),
  )
  .toJSON();

/** The reply to `/schedule …` (shown to the caller only), through the assistant. */
export async function scheduleReply(
  interaction: ChatInputCommandInteraction,
  assistant: Assistant,
  key: string,
  settingsKey: string,
): Promise<string> {
  if (!assistant.scheduleCommand) return 'Scheduled questions are not kept by this bot.';
  const sub = interaction.options.getSubcommand(true);
  const args =
    sub === 'cancel'
      ? `cancel ${interaction.options.getString('id', true)}`
      : sub === 'add'
        ? `add "${interaction.options.getString('when', true).replace(/["“”]/g, '')}" ${interaction.options.getString('question', true)}`
        : 'list';
  return assistant.scheduleCommand(
    {
      asker: interactionAsker(interaction),
      key,
      settingsKey,
      author: displayName(interaction.member, interaction.user),
    },
    args,
  );
}
