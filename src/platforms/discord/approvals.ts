import { ButtonStyle, ComponentType } from 'discord.js';
import { approvalForbidden } from '../../core/approvals/approval-wording.js';
import { argumentsText } from '../shared/format-approvals.js';
import { cut } from '../shared/format-step.js';
import { runActionId } from '../shared/run-actions.js';
import type { PendingApproval, RunView } from '../shared/run-view.js';
import type { ButtonRow } from './buttons.js';
import { codeBlock, type PostEditable } from './steps.js';

/** Characters of a call's arguments shown in the approval message; the rest is cut with a note. */
const ARGS_CHARS = 1_500;

/** What the approval messages of one run need. */
export interface DiscordApprovalsOptions {
  /** Posts a message with buttons where the steps are (after those before it); returns its editor. */
  post: PostEditable;
  onError: (err: unknown) => void;
}

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

/** The message shown for a pending call: the tool, its exact arguments (as code), who decides and when it expires. */
export function approvalMessage(approval: PendingApproval): string {
  const text = argumentsText(approval.input);
  const shown = cut(text, ARGS_CHARS);
  const note = shown.cut
    ? `\n-# arguments cut here: ${text.length.toLocaleString('en')} characters in all`
    : '';
  const who = approvalForbidden(approval.approvers)
    .replace(/^Only /, '')
    .replace(/ can approve this\.$/, '');
  return [
    `**Approval needed:** \`${approval.tool}\``,
    `${codeBlock(shown.text)}${note}`,
    `-# ${who[0]!.toUpperCase()}${who.slice(1)} decides; unanswered, it is denied <t:${Math.ceil(approval.expiresAt / 1000)}:R>.`,
  ].join('\n');
}

/**
 * Posts a message with Approve / Deny for each call of a run that waits for a person, and once it is
 * decided (or the run ends) edits it to say how it ended, without buttons.
 */
export function createDiscordApprovals(options: DiscordApprovalsOptions) {
  const shown = new Map<
    string,
    { approval: PendingApproval; editor: Promise<Awaited<ReturnType<PostEditable>> | undefined> }
  >();
  const closed = new Set<string>();
  const updates: Promise<void>[] = [];

  const close = (id: string, view: RunView) => {
    const entry = shown.get(id);
    if (!entry || closed.has(id)) return;
    closed.add(id);
    // Kept through a shutdown: its buttons still decide it after the restart.
    if (view.keptApprovals?.some((a) => a.id === id)) return;
    const tool = entry.approval.tool;
    const note = [...view.steps].reverse().find((s) => s.kind === 'note' && s.text.startsWith(`${tool} `));
    const ending = note?.kind === 'note' ? note.text : 'The answer ended before anyone decided.';
    updates.push(
      entry.editor.then(async (edit) => {
        try {
          await edit?.(`${approvalMessage(entry.approval)}\n**${ending}**`, []);
        } catch (err) {
          options.onError(err);
        }
      }),
    );
  };

  return {
    /** Shows new pending calls and closes decided ones. */
    show(view: RunView) {
      const waiting = view.approvals ?? [];
      for (const approval of waiting) {
        if (shown.has(approval.id)) continue;
        const editor = options
          .post(approvalMessage(approval), [approvalRow(approval.id, argumentsCut(approval))])
          .catch((err: unknown) => {
            options.onError(err);
            return undefined;
          });
        shown.set(approval.id, { approval, editor });
      }
      for (const id of shown.keys()) if (!waiting.some((a) => a.id === id)) close(id, view);
    },
    /** Closes what is still open as the run ends, and waits for every edit. */
    async finish(view: RunView) {
      for (const id of shown.keys()) close(id, view);
      await Promise.all(updates);
    },
  };
}
