import { type ChatInputCommandInteraction, MessageFlags } from 'discord.js';
import type { Asker } from '../../core/governance/asker.js';
import type { Arrival } from '../../core/ports/run-queue.js';
import { lazy } from '../shared/lazy.js';
import { WORDING } from '../shared/wording.js';
import { answer, type DiscordContext } from './answer.js';
import { arrive, type DiscordPlaceholder } from './arrive.js';
import { interactionAsker } from './asker.js';
import { stopRow } from './buttons.js';
import { displayName } from './conversation.js';
import { botIsPresent, USER_INSTALL_ANSWER_MESSAGES, USER_INSTALL_FOLLOW_UPS } from './install-place.js';
import { NO_PINGS, threadName } from './limits.js';
import { interactionSurface } from './surfaces.js';

/**
 * How long `/ask` lets its place in the line and the access check (both storage calls, Postgres with
 * several replicas) run before it defers publicly. Discord drops a command not answered within 3 s, so slow
 * storage must never hold the first response; but a deferral is public, and a refusal should stay private.
 * Waiting this long first keeps the usual refusal a single ephemeral reply with nothing shown in the channel;
 * past it, "thinking…" goes out, and a refusal that comes later is made private after the fact (see
 * {@link tellPrivately}). 750 ms leaves over 2 s for the deferral itself to reach Discord.
 */
export const DEFER_AFTER_MS = 750;

/** What the line and the access check made of a question. */
type Admission =
  | { kind: 'admitted'; arrival: Arrival | undefined }
  /** Refused, or storage could not be reached: `text` is for the asker's eyes only. */
  | { kind: 'refused'; text: string }
  /** Seen already (another replica has it): this process says nothing. */
  | { kind: 'repeat' };

/**
 * Answers `/ask`: its place in the line taken on arrival, access checked before anything is shown (a public
 * deferral goes out meanwhile if storage is slow, see {@link DEFER_AFTER_MS}), then the deferred public
 * response edited with the answer (the question above it in small print, since nobody else sees the
 * command's option) and the steps in a thread, or beside it where no thread can be made.
 */
export async function handleAsk(
  interaction: ChatInputCommandInteraction,
  ctx: DiscordContext,
  key: string,
  settingsKey: string,
): Promise<void> {
  const asker = interactionAsker(interaction);
  let deferral: Promise<boolean> | undefined;
  const defer = () =>
    interaction.deferReply().then(
      () => true,
      (err: unknown) => {
        ctx.logger.error({ err }, 'could not defer /ask');
        return false;
      },
    );
  const timer = setTimeout(() => {
    deferral = defer();
  }, DEFER_AFTER_MS);
  const admission = await admit(ctx, key, interaction.id, asker).finally(() => clearTimeout(timer));
  if (admission.kind === 'repeat') return;
  if (admission.kind === 'refused') {
    await tellPrivately(interaction, admission.text, deferral);
    return;
  }
  const { arrival } = admission;
  if (!(await (deferral ?? defer()))) {
    arrival?.leave();
    return;
  }
  arrival?.placed({
    interaction: { applicationId: interaction.applicationId, token: interaction.token },
  } satisfies DiscordPlaceholder);
  const question = interaction.options.getString('question', true).trim();
  // Where the bot is not a member (a user install), everything goes through the interaction's token.
  const present = botIsPresent(interaction);
  const channel = present ? interaction.channel : null;
  const threads = interaction.inGuild() && channel !== null && !channel.isThread() && 'threads' in channel;
  const author = displayName(interaction.member, interaction.user);
  // Nobody else sees the command's option, so the answer starts with the question, in small print.
  const header = `-# ${author} asked: ${threadName(question)}`;
  const run = ctx.runs.start(asker.userId, ctx.signal);
  const surface = interactionSurface(interaction, {
    threads,
    now: ctx.now,
    logger: ctx.logger,
    interactionOnly: present ? undefined : { followUps: USER_INSTALL_FOLLOW_UPS },
  });
  const answerCtx = present
    ? ctx
    : { ...ctx, maxMessages: Math.min(ctx.maxMessages, USER_INSTALL_ANSWER_MESSAGES) };
  try {
    await surface.edit(`${header}\n${WORDING.thinking}`, [stopRow(run.id)]);
  } catch (err) {
    ctx.logger.warn({ err }, 'could not show the Stop button');
  }
  // In a thread or forum post, what was said there before the command is its context, as for a mention.
  const askedAt = channel?.isThread()
    ? { id: interaction.id, channel, client: interaction.client }
    : undefined;
  const context = askedAt ? lazy(() => ctx.history.read(askedAt, key)) : undefined;
  let view: Awaited<ReturnType<typeof answer>>;
  try {
    view = await answer(
      { key, settingsKey, author, text: question, asker, arrival, context },
      surface,
      answerCtx,
      run,
      header,
    );
  } finally {
    surface.close();
  }
  if (view.phase !== 'final' || !askedAt) return;
  ctx.history.answered(key, interaction.id);
  // Asked in a thread or forum post: the asker's next messages there are answered without a mention.
  await ctx.follows?.answered([key], asker.principal);
}

/** Takes the question's place in the line, then checks who may ask; never throws. */
async function admit(ctx: DiscordContext, key: string, id: string, asker: Asker): Promise<Admission> {
  let told: string | undefined;
  const arrival = await arrive(ctx, key, `discord:interaction:${id}`, async (text) => {
    told = text;
  });
  if (arrival === null) return told === undefined ? { kind: 'repeat' } : { kind: 'refused', text: told };
  try {
    const access = await ctx.assistant.access(asker, key);
    if (access.allowed) return { kind: 'admitted', arrival };
    arrival?.leave();
    return { kind: 'refused', text: access.message };
  } catch (err) {
    arrival?.leave();
    ctx.logger.error({ err }, 'could not check who may ask');
    return { kind: 'refused', text: WORDING.storageUnavailable };
  }
}

/**
 * Shows `text` to the asker alone: as the ephemeral reply when nothing was sent yet; after a public
 * deferral, as an ephemeral follow-up, and the public placeholder is deleted. The placeholder is edited
 * first: the first follow-up to a deferred response takes the deferral's visibility and its `flags` are
 * ignored (Discord's "Create Followup Message"; discord-api-docs issue #2866, PR #3466).
 */
async function tellPrivately(
  interaction: ChatInputCommandInteraction,
  text: string,
  deferral: Promise<boolean> | undefined,
): Promise<void> {
  if (!deferral) {
    await interaction.reply({ content: text, flags: MessageFlags.Ephemeral, allowedMentions: NO_PINGS });
    return;
  }
  if (!(await deferral)) return;
  await interaction.editReply({ content: '-# …', allowedMentions: NO_PINGS });
  await interaction.followUp({ content: text, flags: MessageFlags.Ephemeral, allowedMentions: NO_PINGS });
  await interaction.deleteReply();
}
