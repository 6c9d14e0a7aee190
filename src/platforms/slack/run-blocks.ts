import type { types } from '@slack/bolt';
import { runActionId } from '../shared/run-actions.js';
import { WORDING } from '../shared/wording.js';

/** The Stop button under an answer being written (an actions block; its action_id names the run). */
export function stopBlock(runId: string): types.ActionsBlock {
  return {
    type: 'actions',
    elements: [
      {
        type: 'button',
        action_id: runActionId('stop', runId),
        value: runActionId('stop', runId),
        text: { type: 'plain_text', text: `⏹️ ${WORDING.stopButton}`, emoji: true },
      },
    ],
  };
}

/**
 * 👍 / 👎 under a finished answer: Slack's `feedback_buttons` in a `context_actions` block. Both buttons
 * share one action_id, so each button's value names its action and the run.
 */
export function feedbackBlock(runId: string): types.ContextActionsBlock {
  return {
    type: 'context_actions',
    elements: [
      {
        type: 'feedback_buttons',
        action_id: runActionId('feedback_up', runId),
        positive_button: {
          text: { type: 'plain_text', text: '👍' },
          accessibility_label: 'This answer helped',
          value: runActionId('feedback_up', runId),
        },
        negative_button: {
          text: { type: 'plain_text', text: '👎' },
          accessibility_label: 'This answer did not help',
          value: runActionId('feedback_down', runId),
        },
      },
    ],
  };
}
