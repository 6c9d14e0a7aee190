import { ButtonStyle, ComponentType } from 'discord.js';
import { approvalForbidden } from '../../core/approvals/approval-wording.js';
import { argumentsText } from '../shared/format-approvals.js';
import { cut } from '../shared/format-step.js';
import { runActionId } from '../shared/run-actions.js';
import type { PendingApproval } from '../shared/run-view.js';
import type { ButtonRow } from './buttons.js';
import { codeBlock } from './steps.js';

/** Characters of a call's arguments shown in the approval message; the rest is cut with a note. */
const ARGS_CHARS = 1_500;

/**
 * Approve / Deny under a pending call, and "Show all arguments" when the message had to cut them: three
 * buttons, within a row's five, labels within 80 characters
 * (https://discord.com/developers/docs/components/reference#action-row, #button).
 */
export function approvalRow(id: string, argumentsCut = false): ButtonRow {
  const showAll = {
    type: ComponentType.Button,
    style: ButtonStyle.Secondary,
    label: 'Show all arguments',
    custom_id: runActionId('args', id),
  } as const;
  return {
    type: ComponentType.ActionRow,
    components: [
      {
        type: ComponentType.Button,
        style: ButtonStyle.Success,
        label: 'Approve',
        custom_id: runActionId('approve', id),
      },
      {
        type: ComponentType.Button,
        style: ButtonStyle.Danger,
        label: 'Deny',
        custom_id: runActionId('deny', id),
      },
      ...(argumentsCut ? [showAll] : []),
    ],
  };
}

/** Whether the approval message cuts the call's arguments. */
export function argumentsCut(approval: PendingApproval): boolean {
  return argumentsText(approval.input).length > ARGS_CHARS;
}

/** The first line of an approval prompt: the tool waiting. */
export function approvalHeader(approval: PendingApproval): string {
  return `**Approval needed:** \`${approval.tool}\``;
}

/** Who decides a pending call, and when it is denied unanswered (a Discord timestamp). */
export function decidesLine(approval: PendingApproval): string {
  const who = approvalForbidden(approval.approvers)
    .replace(/^Only /, '')
    .replace(/ can approve this\.$/, '');
  return `${who[0]!.toUpperCase()}${who.slice(1)} decides; unanswered, it is denied <t:${Math.ceil(approval.expiresAt / 1000)}:R>.`;
}

/** The message shown for a pending call: the tool, its exact arguments (as code), who decides and when it expires. */
export function approvalMessage(approval: PendingApproval): string {
  const text = argumentsText(approval.input);
  const shown = cut(text, ARGS_CHARS);
  const note = shown.cut
    ? `\n-# arguments cut here: ${text.length.toLocaleString('en')} characters in all`
    : '';
  return [approvalHeader(approval), `${codeBlock(shown.text)}${note}`, `-# ${decidesLine(approval)}`].join(
    '\n',
  );
}
