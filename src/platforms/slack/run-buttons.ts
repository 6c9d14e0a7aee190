import type { App, BlockAction, RespondFn } from '@slack/bolt';
import type { Assistant } from '../../core/assistant.js';
import { isAdmin } from '../../core/governance/access-policy.js';
import { slackPrincipal } from '../../core/governance/principal.js';
import type { Logger } from '../../core/logger.js';
import { parseRunActionId } from '../shared/run-actions.js';
import type { RunRegistry } from '../shared/run-registry.js';
import { WORDING } from '../shared/wording.js';
import type { WorkTracker } from '../shared/work-tracker.js';
import { conversationKey } from './conversation-key.js';
import { feedbackModal, registerFeedbackModal } from './feedback-modal.js';
import type { UserDirectory } from './user-names.js';

/** What the run buttons need. */
export interface RunButtonDeps {
  assistant: Assistant;
  runs: RunRegistry;
  users: UserDirectory;
  /** ADMIN_USERS: they may stop anyone's answer. */
  adminUsers: readonly string[];
  work: WorkTracker;
  logger: Logger;
}

/** Every id run-actions.ts makes. */
const RUN_ACTION = /^tt:(?:stop|feedback_up|feedback_down):/;

/**
 * Handles presses on the Stop and feedback buttons of every answer layout: acknowledged at once (Slack
 * gives 3 s), acted on in the background. Presses that change nothing get a private line.
 */
export function registerRunButtons(app: App, deps: RunButtonDeps): void {
  const { runs, logger } = deps;
  registerFeedbackModal(app, deps);
  app.action<BlockAction>(RUN_ACTION, async ({ ack, body, action, respond, client, context }) => {
    await ack();
    const value = 'value' in action && typeof action.value === 'string' ? action.value : '';
    const pressed = parseRunActionId(value) ?? parseRunActionId(action.action_id);
    if (!pressed) return;
    const userId = body.user.id;
    const whisper = (text: string) => privately(respond, text, logger);
    deps.work.run('a Slack button', async () => {
      const user = () => deps.users(client, userId);
      if (pressed.action === 'stop') {
        const result = await runs.stop(pressed.runId, {
          userId,
          name: user().then((u) => u.name),
          admin: () =>
            isAdmin(
              { ADMIN_USERS: deps.adminUsers },
              {
                principal: slackPrincipal(userId, body.user.team_id ?? context.teamId),
                platformAdmin: user().then((u) => u.admin),
              },
            ),
        });
        if (result !== 'stopped') {
          await whisper(result === 'forbidden' ? WORDING.onlyAskerCanStop : WORDING.answerFinished);
        }
        return;
      }
      const channel = body.channel?.id ?? body.container?.channel_id;
      const team = context.teamId ?? body.team?.id ?? 'unknown';
      const threadTs = body.message?.thread_ts ?? body.container?.thread_ts;
      const key = conversationKey(team, channel ?? 'unknown', threadTs);
      const vote = pressed.action === 'feedback_up' ? 'up' : 'down';
      // After a 👎, a modal asks what was wrong. Slack's trigger_id lives 3 s, so the modal opens before
      // anything is written (the vote is stored whether or not it opened).
      if (vote === 'down' && body.trigger_id) {
        await client.views
          .open({ trigger_id: body.trigger_id, view: feedbackModal({ runId: pressed.runId, key, vote }) })
          .catch((err: unknown) => logger.warn({ err }, 'could not open the feedback modal'));
      }
      try {
        const voter = slackPrincipal(userId, body.user.team_id ?? context.teamId);
        await deps.assistant.feedback({ runId: pressed.runId, platform: 'slack', key, userId: voter, vote });
      } catch (err) {
        logger.error({ err }, 'could not store feedback');
        await whisper(WORDING.commandFailed);
        return;
      }
      await whisper(WORDING.feedbackThanks);
    });
  });
}

/** A line only the presser sees, under the message they pressed on. */
async function privately(respond: RespondFn, text: string, logger: Logger): Promise<void> {
  try {
    await respond({ response_type: 'ephemeral', replace_original: false, text });
  } catch (err) {
    logger.warn({ err }, 'could not answer a button press');
  }
}
