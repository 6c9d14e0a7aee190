import type { types } from '@slack/bolt';
import { runActionId } from '../shared/run-actions.js';
import { WORDING } from '../shared/wording.js';

/**
 * The buttons of a run, in one place so their handlers and these blocks agree. Each button's `value` is
 * its run action id (`parseRunActionId`); the Stop button's `action_id` is the same id, and the feedback
 * element's `action_id` is the thumbs-up id (Slack gives one `action_id` to both feedback buttons).
 */
export function runButtons(kind: 'stop' | 'feedback', runId: string): types.KnownBlock[] {
  if (kind === 'stop') {
    const id = runActionId('stop', runId);
    return [
      {
        type: 'actions',
        elements: [
          {
            type: 'button',
            action_id: id,
            value: id,
            style: 'danger',
            text: { type: 'plain_text', text: WORDING.stop },
          },
        ],
      },
    ];
  }
  const up = runActionId('feedback_up', runId);
  const down = runActionId('feedback_down', runId);
  return [
    {
      type: 'context_actions',
      elements: [
        {
          type: 'feedback_buttons',
          action_id: up,
          positive_button: {
            text: { type: 'plain_text', text: '👍' },
            value: up,
            accessibility_label: 'This answer helped',
          },
          negative_button: {
            text: { type: 'plain_text', text: '👎' },
            value: down,
            accessibility_label: 'This answer did not help',
          },
        },
      ],
    },
  ];
}
