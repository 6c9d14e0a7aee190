import {
  type ButtonInteraction,
  ComponentType,
  MessageFlags,
  type ModalSubmitInteraction,
  PermissionFlagsBits,
  TextInputStyle,
} from 'discord.js';
import type { Approver, DecidedElsewhere } from '../../core/approvals/create-approvals.js';
import { MAX_REASON_CHARS } from '../../core/approvals/create-approvals.js';
import { discordPrincipal } from '../../core/governance/principal.js';
import { parseRunActionId, runActionId } from '../shared/run-actions.js';
import { WORDING } from '../shared/wording.js';
import type { DiscordContext } from './answer.js';
import { approvalCard } from './approval-card.js';
import { approvalMessage } from './approval-message.js';
import { displayName } from './conversation.js';

/** The reason field of the Deny form. */
const REASON_FIELD = 'reason';

/** Who pressed, as the core judges approvers: their principal, name and Manage Server right. */
export function approverOf(interaction: ButtonInteraction | ModalSubmitInteraction): Approver {
  return {
    principal: discordPrincipal(interaction.user.id),
    name: displayName(interaction.member, interaction.user),
    platformAdmin: interaction.memberPermissions?.has(PermissionFlagsBits.ManageGuild) ?? false,
  };
}

/**
 * A press on Approve or Deny, answered within Discord's 3 s: Approve decides at once (in memory) and
 * acknowledges silently (the message itself changes); Deny first checks the presser may decide, then opens
 * a form for the reason (a modal must be the first response). Anyone else gets a private line.
 */
export async function handleApprovalButton(
  interaction: ButtonInteraction,
  ctx: DiscordContext,
  action: 'approve' | 'deny',
  id: string,
): Promise<void> {
  const privately = (content: string) => interaction.reply({ content, flags: MessageFlags.Ephemeral });
  const { assistant } = ctx;
  if (!assistant.decideApproval || !assistant.checkApproval)
    return void (await privately(WORDING.answerFinished));
  const who = approverOf(interaction);
  if (action === 'approve') {
    const press = await assistant.decideApproval(id, who, { approve: true });
    if (press.status !== 'approved')
      return void (await privately('message' in press ? press.message : WORDING.answerFinished));
    // A run elsewhere (another replica, or gone with a restart) edits no message here: the press says it.
    if (press.elsewhere) await interaction.update(decidedHere(interaction, press.elsewhere));
    else await interaction.deferUpdate();
    return;
  }
  const check = await assistant.checkApproval(id, who);
  if (check.status !== 'allowed') return void (await privately('message' in check ? check.message : ''));
  // Modal rules: title ≤ 45, a text input's label ≤ 45 and max_length ≤ 4000, custom_id ≤ 100
  // (https://discord.com/developers/docs/components/reference#text-input).
  await interaction.showModal({
    custom_id: runActionId('deny', id),
    title: 'Deny this tool call',
    components: [
      {
        type: ComponentType.ActionRow,
        components: [
          {
            type: ComponentType.TextInput,
            custom_id: REASON_FIELD,
            style: TextInputStyle.Paragraph,
            label: 'Why? (optional; the model reads it)',
            required: false,
            max_length: MAX_REASON_CHARS,
          },
        ],
      },
    ],
  });
}

/** The Deny form sent back: denies with its reason, or says privately why it could not. */
export async function handleApprovalModal(
  interaction: ModalSubmitInteraction,
  ctx: DiscordContext,
): Promise<void> {
  const pressed = parseRunActionId(interaction.customId);
  const decide = ctx.assistant.decideApproval;
  if (pressed?.action !== 'deny' || !decide) {
    await interaction.reply({ content: WORDING.answerFinished, flags: MessageFlags.Ephemeral });
    return;
  }
  const reason = interaction.fields.getTextInputValue(REASON_FIELD);
  const press = await decide(pressed.runId, approverOf(interaction), { approve: false, reason });
  if (press.status === 'denied' && interaction.isFromMessage()) {
    if (press.elsewhere) await interaction.update(decidedHere(interaction, press.elsewhere));
    else await interaction.deferUpdate();
  } else
    await interaction.reply({
      content: 'message' in press ? press.message : 'Denied.',
      flags: MessageFlags.Ephemeral,
    });
}

/**
 * The pressed approval message once decided, as the run's own renderer would leave it: the ending, no
 * buttons; still a components v2 card if it was one (its flag cannot be removed).
 */
function decidedHere(interaction: ButtonInteraction | ModalSubmitInteraction, decided: DecidedElsewhere) {
  if (interaction.message?.flags.has(MessageFlags.IsComponentsV2))
    return { components: [approvalCard(decided.call, decided.note)] };
  return { content: `${approvalMessage(decided.call)}\n**${decided.note}**`, components: [] };
}
