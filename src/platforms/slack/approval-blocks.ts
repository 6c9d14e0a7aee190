import type { types } from '@slack/bolt';
import { approvalForbidden } from '../../core/approvals/approval-wording.js';
import { argumentsText } from '../shared/format-approvals.js';
import { cut } from '../shared/format-step.js';
import { runActionId } from '../shared/run-actions.js';
import type { PendingApproval } from '../shared/run-view.js';
import { codePiece, SECTION_CODE_CHARS } from './arguments-modal.js';
import { plainToMrkdwn } from './mrkdwn.js';

/**
 * Characters of a call's arguments shown in the approval message; escaped, they must still fit one section
 * (SECTION_CODE_CHARS), else fewer are shown.
 */
const ARGS_CHARS = 2_000;

/** The arguments as the message shows them: pretty JSON in a code block nothing inside can close. */
function argsCode(approval: PendingApproval): { code: string; total: number; cut: boolean } {
  const text = argumentsText(approval.input);
  const shown = cut(text, ARGS_CHARS);
  const piece = codePiece(shown.text, 0, SECTION_CODE_CHARS);
  return { code: piece.code, total: text.length, cut: shown.cut || piece.end < shown.text.length };
}

/**
 * The message shown for a pending call: the tool, its exact arguments, who decides, and Approve / Deny,
 * with "Show all arguments" when they are cut.
 */
export function approvalBlocks(approval: PendingApproval): types.KnownBlock[] {
  return [...approvalBody(approval), approvalButtons(approval.id, argsCode(approval).cut)];
}

/** The same message once decided: how it ended, no buttons. */
export function decidedBlocks(approval: PendingApproval, ending: string): types.KnownBlock[] {
  return [
    ...approvalBody(approval),
    { type: 'section', text: { type: 'mrkdwn', text: `*${plainToMrkdwn(ending)}*` } },
  ];
}

/** The fallback text of the message (notifications, screen readers). */
export function approvalText(approval: PendingApproval): string {
  return `Approval needed: ${approval.tool}`;
}

function approvalBody(approval: PendingApproval): types.KnownBlock[] {
  const args = argsCode(approval);
  const who = approvalForbidden(approval.approvers)
    .replace(/^Only /, '')
    .replace(/ can approve this\.$/, '');
  const expires = Math.ceil(approval.expiresAt / 1000);
  return [
    {
      type: 'section',
      text: { type: 'mrkdwn', text: `*Approval needed:* \`${plainToMrkdwn(approval.tool)}\`` },
    },
    { type: 'section', text: { type: 'mrkdwn', text: `\`\`\`${args.code}\`\`\`` } },
    {
      type: 'context',
      elements: [
        {
          type: 'mrkdwn',
          text:
            `${who[0]!.toUpperCase()}${who.slice(1)} decides; unanswered, it is denied <!date^${expires}^{time}|in time>.` +
            (args.cut
              ? ` The arguments are cut here (${args.total.toLocaleString('en')} characters in all).`
              : ''),
        },
      ],
    },
  ];
}

/**
 * Approve / Deny, and "Show all arguments" when they are cut: three of an actions block's 25 elements
 * (https://docs.slack.dev/reference/block-kit/blocks/actions-block); ids as run-actions.ts makes them (an
 * `action_id` takes 255 characters, a value 2,000; https://docs.slack.dev/reference/block-kit/block-elements/button-element).
 */
function approvalButtons(id: string, argumentsCut: boolean): types.ActionsBlock {
  const showAll: types.Button = {
    type: 'button',
    action_id: runActionId('args', id),
    value: runActionId('args', id),
    text: { type: 'plain_text', text: 'Show all arguments' },
  };
  return {
    type: 'actions',
    block_id: `tt_approval_${id}`.slice(0, 255),
    elements: [
      {
        type: 'button',
        action_id: runActionId('approve', id),
        value: runActionId('approve', id),
        style: 'primary',
        text: { type: 'plain_text', text: 'Approve' },
      },
      {
        type: 'button',
        action_id: runActionId('deny', id),
        value: runActionId('deny', id),
        style: 'danger',
        text: { type: 'plain_text', text: 'Deny' },
      },
      ...(argumentsCut ? [showAll] : []),
    ],
  };
}
