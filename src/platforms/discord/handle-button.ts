import { type ButtonInteraction, MessageFlags, PermissionFlagsBits } from 'discord.js';
import { isAdmin } from '../../core/governance/access-policy.js';
import { discordPrincipal } from '../../core/governance/principal.js';
import { parseRunActionId } from '../shared/run-actions.js';
import { WORDING } from '../shared/wording.js';
import type { DiscordContext } from './answer.js';
import { handleArgumentsButton } from './arguments-reply.js';
import { conversationKey, displayName } from './conversation.js';
import { handleApprovalButton } from './handle-approval.js';

/**
 * Answers a press on a Stop or feedback button within Discord's 3 s: Stop acknowledges silently (the answer
 * itself shows "(stopped)"), everything else with a private line.
 */
export async function handleButton(interaction: ButtonInteraction, ctx: DiscordContext): Promise<void> {
  const privately = (content: string) => interaction.reply({ content, flags: MessageFlags.Ephemeral });
  const pressed = parseRunActionId(interaction.customId);
  if (!pressed) {
    await privately(WORDING.answerFinished);
    return;
  }
  if (pressed.action === 'approve' || pressed.action === 'deny') {
    await handleApprovalButton(interaction, ctx, pressed.action, pressed.runId);
    return;
  }
  if (pressed.action === 'args') {
    await handleArgumentsButton(interaction, ctx, pressed.runId);
    return;
  }
  const userId = interaction.user.id;
  if (pressed.action === 'stop') {
    const result = await ctx.runs.stop(pressed.runId, {
      userId,
      name: displayName(interaction.member, interaction.user),
      admin: () =>
        isAdmin(
          { ADMIN_USERS: ctx.adminUsers },
          {
            principal: discordPrincipal(userId),
            platformAdmin: interaction.memberPermissions?.has(PermissionFlagsBits.ManageGuild) ?? false,
          },
        ),
    });
    if (result === 'stopped') await interaction.deferUpdate();
    else await privately(result === 'forbidden' ? WORDING.onlyAskerCanStop : WORDING.answerFinished);
    return;
  }
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  let reply: string = WORDING.feedbackThanks;
  try {
    await ctx.assistant.feedback({
      runId: pressed.runId,
      platform: 'discord',
      key: conversationKey(interaction.guildId, interaction.channelId),
      userId: discordPrincipal(userId),
      vote: pressed.action === 'feedback_up' ? 'up' : 'down',
    });
  } catch (err) {
    ctx.logger.error({ err }, 'could not store feedback');
    reply = `⚠️ ${WORDING.commandFailed}`;
  }
  await interaction.editReply({ content: reply });
}
