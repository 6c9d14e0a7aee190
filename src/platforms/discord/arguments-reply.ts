import { type ButtonInteraction, MessageFlags } from 'discord.js';
import { argumentsText } from '../shared/format-approvals.js';
import { WORDING } from '../shared/wording.js';
import type { DiscordContext } from './answer.js';
import { approverOf } from './handle-approval.js';

/** The name of the file that carries a call's whole arguments. */
export const ARGUMENTS_FILE = 'arguments.json';

/**
 * A press on "Show all arguments", answered within Discord's 3 s: to one who may decide the call, a private
 * reply with its whole arguments attached as a file (uploaded as `files[0]` beside `payload_json`,
 * https://discord.com/developers/docs/reference#uploading-files); to anyone else, the private line why not.
 */
export async function handleArgumentsButton(
  interaction: ButtonInteraction,
  ctx: DiscordContext,
  id: string,
): Promise<void> {
  const privately = (content: string) => interaction.reply({ content, flags: MessageFlags.Ephemeral });
  const { assistant } = ctx;
  if (!assistant.approvalCall) return void (await privately(WORDING.answerFinished));
  const call = await assistant.approvalCall(id, approverOf(interaction)).catch((err: unknown) => {
    ctx.logger.error({ err }, 'could not look up a pending call');
    return { status: 'forbidden' as const, message: `⚠️ ${WORDING.commandFailed}` };
  });
  if (call.status !== 'allowed') return void (await privately(call.message));
  await interaction.reply({
    content: `The whole arguments of \`${call.tool}\`:`,
    files: [{ attachment: Buffer.from(argumentsText(call.input), 'utf8'), name: ARGUMENTS_FILE }],
    flags: MessageFlags.Ephemeral,
  });
}
