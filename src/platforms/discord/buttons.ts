import { type APIActionRowComponent, type APIButtonComponent, ButtonStyle, ComponentType } from 'discord.js';
import { runActionId } from '../shared/run-actions.js';
import { WORDING } from '../shared/wording.js';

/** A row of buttons under an answer. */
export type ButtonRow = APIActionRowComponent<APIButtonComponent>;

/** The Stop button, under an answer being written. */
export function stopRow(runId: string): ButtonRow {
  return {
    type: ComponentType.ActionRow,
    components: [
      {
        type: ComponentType.Button,
        style: ButtonStyle.Secondary,
        label: WORDING.stopButton,
        emoji: { name: '⏹️' },
        custom_id: runActionId('stop', runId),
      },
    ],
  };
}

/** 👍 / 👎, under a finished answer. */
export function feedbackRow(runId: string): ButtonRow {
  const button = (action: 'feedback_up' | 'feedback_down', emoji: string): APIButtonComponent => ({
    type: ComponentType.Button,
    style: ButtonStyle.Secondary,
    emoji: { name: emoji },
    custom_id: runActionId(action, runId),
  });
  return {
    type: ComponentType.ActionRow,
    components: [button('feedback_up', '👍'), button('feedback_down', '👎')],
  };
}
