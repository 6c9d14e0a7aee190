import type { types } from '@slack/bolt';

/** A modal asking for one optional piece of text, read back from `values[field][field]`. */
export interface TextModal {
  callbackId: string;
  /** What the submission acts on (JSON, at most 3,000 characters). */
  metadata: string;
  /** The modal's title and buttons: 24 characters at most each. */
  title: string;
  submit: string;
  close: string;
  field: string;
  label: string;
  maxLength: number;
}

/**
 * The modal view. Slack's rules: `title`, `submit` and `close` at most 24 characters, `private_metadata` at
 * most 3,000 (https://docs.slack.dev/reference/views/modal-views), a plain-text input's `max_length` at
 * most 3,000 (https://docs.slack.dev/reference/block-kit/block-elements/plain-text-input-element).
 */
export function textModal(m: TextModal): types.ModalView {
  const text = (t: string) => ({ type: 'plain_text' as const, text: t });
  return {
    type: 'modal',
    callback_id: m.callbackId,
    private_metadata: m.metadata,
    title: text(m.title),
    submit: text(m.submit),
    close: text(m.close),
    blocks: [
      {
        type: 'input',
        block_id: m.field,
        optional: true,
        label: text(m.label),
        element: { type: 'plain_text_input', action_id: m.field, multiline: true, max_length: m.maxLength },
      },
    ],
  };
}
