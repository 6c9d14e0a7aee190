import type { types } from '@slack/bolt';
import { argumentsText } from '../shared/format-approvals.js';
import { plainToMrkdwn } from './mrkdwn.js';

/** The callback_id of the modal that shows a pending call's whole arguments. */
export const ARGS_VIEW = 'tt_approval_args';

/**
 * Characters of code in one section: its text takes "Maximum length for this field is 3000 characters"
 * (https://docs.slack.dev/reference/block-kit/blocks/section-block), less the two ``` fences around it.
 */
export const SECTION_CODE_CHARS = 3_000 - 6;

/** A modal holds "Maximum of 100 blocks" (https://docs.slack.dev/reference/views/modal-views). */
const MODAL_BLOCKS = 100;

const ZWSP = '\u200B';

/**
 * Plain text made safe between ``` fences: escaped as mrkdwn, and no backtick beside another or at either
 * end (a zero-width space between), so nothing in it can close the block.
 */
export function codeText(text: string): string {
  const code = plainToMrkdwn(text).replace(/`(?=`)/g, `\`${ZWSP}`);
  return `${code.startsWith('`') ? ZWSP : ''}${code}${code.endsWith('`') ? ZWSP : ''}`;
}

/**
 * The longest piece of `text` from `start` whose code ({@link codeText}) fits in `max` characters, ending
 * after a line where one is near; never splits a character. Returns the code and where the piece ends.
 */
export function codePiece(text: string, start: number, max: number): { code: string; end: number } {
  let end = Math.min(text.length, start + max);
  const newline = text.lastIndexOf('\n', end - 1);
  if (end < text.length && newline >= start + max / 2) end = newline + 1;
  for (;;) {
    const last = text.charCodeAt(end - 1);
    if (end < text.length && end - start > 1 && last >= 0xd800 && last <= 0xdbff) end--;
    const code = codeText(text.slice(start, end));
    if (code.length <= max || end - start <= 1) return { code, end };
    end = start + Math.max(1, Math.floor(((end - start) * max) / code.length));
  }
}

/**
 * The modal showing the whole arguments of a call of `tool`: as many code sections as they need, each
 * within a section's limit; when even 100 blocks cannot hold them, the last says how much is left out.
 * Title and close button within 24 characters (https://docs.slack.dev/reference/views/modal-views).
 */
export function argumentsModal(tool: string, input: unknown): types.ModalView {
  const text = argumentsText(input);
  const blocks: types.KnownBlock[] = [
    { type: 'section', text: { type: 'mrkdwn', text: `*Arguments of* \`${plainToMrkdwn(tool)}\`` } },
  ];
  let start = 0;
  while (start < text.length && blocks.length < MODAL_BLOCKS - 1) {
    const piece = codePiece(text, start, SECTION_CODE_CHARS);
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text: `\`\`\`${piece.code}\`\`\`` } });
    start = piece.end;
  }
  if (start < text.length) {
    const left = (text.length - start).toLocaleString('en');
    blocks.push({
      type: 'context',
      elements: [
        {
          type: 'mrkdwn',
          text: `The last ${left} characters do not fit here (${text.length.toLocaleString('en')} in all).`,
        },
      ],
    });
  }
  return {
    type: 'modal',
    callback_id: ARGS_VIEW,
    title: { type: 'plain_text', text: 'Tool call arguments' },
    close: { type: 'plain_text', text: 'Close' },
    blocks,
  };
}
