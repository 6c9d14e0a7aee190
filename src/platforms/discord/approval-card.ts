import { type APIComponentInContainer, ComponentType } from 'discord.js';
import { MAX_REASON_CHARS } from '../../core/approvals/approvals.js';
import { argumentsText } from '../shared/format-approvals.js';
import { cut } from '../shared/format-step.js';
import type { PendingApproval } from '../shared/run-view.js';
import { approvalHeader, approvalRow, decidesLine } from './approval-message.js';
import { codeBlock } from './steps.js';
import { CARD_LIMITS, type Card } from './steps-card.js';

/** Characters of a call's arguments the card shows at most; past them it cuts, as the classic message does. */
export const CARD_ARGS_CHARS = 2_500;
/** Text kept free for the line that says how the call was decided (a denial carries its reason). */
const ENDING_ROOM = MAX_REASON_CHARS + 200;

/** The arguments as a code block of at most `budget` characters, cut with a note saying how long they are. */
function argumentsBlock(text: string, budget: number): { block: string; cut: boolean } {
  let limit = Math.min(CARD_ARGS_CHARS, budget);
  for (;;) {
    const shown = cut(text, Math.max(0, limit));
    const note = shown.cut
      ? `\n-# arguments cut here: ${text.length.toLocaleString('en')} characters in all`
      : '';
    const block = `${codeBlock(shown.text)}${note}`;
    // Fences, the note and backticks made harmless add to the text: shown again shorter until it fits.
    if (block.length <= budget || limit <= 0) return { block, cut: shown.cut };
    limit -= Math.max(1, block.length - budget);
  }
}

/**
 * A pending call as a components v2 container: the tool, its arguments as a code block, who decides and
 * when it expires, and Approve / Deny (and "Show all arguments" when cut) in an action row inside it. With
 * `ending`, the decided card: the same texts and the ending in bold, without buttons. Within Discord's
 * 4,000 characters of text whatever the arguments and the ending (see CARD_LIMITS).
 */
export function approvalCard(approval: PendingApproval, ending?: string): Card {
  const header = approvalHeader(approval);
  const who = `-# ${decidesLine(approval)}`;
  const end = ending === undefined ? undefined : `**${ending}**`;
  const room = CARD_LIMITS.text - header.length - who.length - Math.max(end?.length ?? 0, ENDING_ROOM);
  const args = argumentsBlock(argumentsText(approval.input), room);
  const text = (content: string): APIComponentInContainer => ({ type: ComponentType.TextDisplay, content });
  return {
    type: ComponentType.Container,
    components: [
      text(header),
      text(args.block),
      text(who),
      end === undefined ? approvalRow(approval.id, args.cut) : text(end),
    ],
  };
}
