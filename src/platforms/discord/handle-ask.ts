import { type ChatInputCommandInteraction, MessageFlags } from 'discord.js';
import { lazy } from '../shared/lazy.js';
import { WORDING } from '../shared/wording.js';
import { answer, type DiscordContext } from './answer.js';
import { arrive, type DiscordPlaceholder } from './arrive.js';
import { interactionAsker } from './asker.js';
import { stopRow } from './buttons.js';
import { displayName } from './conversation.js';
import { threadName } from './limits.js';
import { interactionSurface } from './surfaces.js';

/**
 * Answers `/ask`: its place in the line taken on arrival, access checked before anything is shown, then a
 * deferred public response edited with the answer (the question above it in small print, since nobody else
 * sees the command's option) and the steps in a thread, or beside it where no thread can be made.
 */
export async function handleAsk(
  interaction: ChatInputCommandInteraction,
  ctx: DiscordContext,
  key: string,
  settingsKey: string,
): Promise<void> {
  const asker = interactionAsker(interaction);
  const arrival = await arrive(ctx, key, `discord:interaction:${interaction.id}`, (content) =>
    interaction.reply({ content, flags: MessageFlags.Ephemeral }),
  );
  if (arrival === null) return;
  // Checked before anything is shown, so a refusal is one private reply and nothing else.
  const access = await ctx.assistant.access(asker, key).catch((err: unknown) => {
    arrival?.leave();
    throw err;
  });
  if (!access.allowed) {
    arrival?.leave();
    await interaction.reply({ content: access.message, flags: MessageFlags.Ephemeral });
    return;
  }
  await interaction.deferReply().catch((err: unknown) => {
    arrival?.leave();
    throw err;
  });
  arrival?.placed({
    interaction: { applicationId: interaction.applicationId, token: interaction.token },
  } satisfies DiscordPlaceholder);
  const question = interaction.options.getString('question', true).trim();
  const channel = interaction.channel;
  const threads = interaction.inGuild() && channel !== null && !channel.isThread() && 'threads' in channel;
  const author = displayName(interaction.member, interaction.user);
  // Nobody else sees the command's option, so the answer starts with the question, in small print.
  const header = `-# ${author} asked: ${threadName(question)}`;
  const run = ctx.runs.start(asker.userId, ctx.signal);
  const surface = interactionSurface(interaction, { threads });
  try {
    await surface.edit(`${header}\n${WORDING.thinking}`, [stopRow(run.id)]);
  } catch (err) {
    ctx.logger.warn({ err }, 'could not show the Stop button');
  }
  // In a thread or forum post, what was said there before the command is its context, as for a mention.
  const askedAt = channel?.isThread()
    ? { id: interaction.id, channel, client: interaction.client }
    : undefined;
  const view = await answer(
    {
      key,
      settingsKey,
      author,
      text: question,
      asker,
      arrival,
      context: askedAt ? lazy(() => ctx.history.read(askedAt, key)) : undefined,
    },
    surface,
    ctx,
    run,
    header,
  );
  if (view.phase === 'final' && askedAt) ctx.history.answered(key, interaction.id);
}
