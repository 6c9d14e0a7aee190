import type { App, types, ViewSubmitAction } from '@slack/bolt';
import type { Assistant } from '../../core/assistant.js';
import { slackPrincipal } from '../../core/governance/principal.js';
import type { Logger } from '../../core/logger.js';
import type { Vote } from '../../core/ports/feedback-store.js';
import type { WorkTracker } from '../shared/work-tracker.js';
import { textModal } from './text-modal.js';

/** The modal's callback_id. */
export const FEEDBACK_VIEW = 'tt_feedback_comment';
/** Longest comment kept. */
export const COMMENT_CHARS = 2000;

/** Which vote the modal adds a comment to, carried in its private_metadata. */
interface FeedbackTarget {
  runId: string;
  key: string;
  vote: Vote;
}

/** The follow-up modal after a 👎: what went wrong, in words (optional). */
export function feedbackModal(target: FeedbackTarget): types.ModalView {
  return textModal({
    callbackId: FEEDBACK_VIEW,
    metadata: JSON.stringify(target),
    title: 'Feedback',
    submit: 'Send',
    close: 'Skip',
    field: 'comment',
    label: 'What was wrong with the answer?',
    maxLength: COMMENT_CHARS,
  });
}

/** Stores the comment of a submitted feedback modal with the vote it follows. */
export function registerFeedbackModal(
  app: App,
  deps: { assistant: Assistant; work: WorkTracker; logger: Logger },
): void {
  app.view<ViewSubmitAction>(FEEDBACK_VIEW, async ({ ack, view, body }) => {
    await ack();
    const target = parseTarget(view.private_metadata);
    const comment = view.state.values.comment?.comment?.value?.trim().slice(0, COMMENT_CHARS);
    if (!target || !comment) return;
    deps.work.run('a Slack feedback comment', async () => {
      const voter = slackPrincipal(body.user.id, body.user.team_id ?? body.team?.id);
      await deps.assistant.feedback({ ...target, platform: 'slack', userId: voter, comment });
    });
  });
}

function parseTarget(metadata: string): FeedbackTarget | undefined {
  try {
    const target = JSON.parse(metadata) as Partial<FeedbackTarget>;
    if (typeof target.runId !== 'string' || typeof target.key !== 'string') return undefined;
    if (target.vote !== 'up' && target.vote !== 'down') return undefined;
    return { runId: target.runId, key: target.key, vote: target.vote };
  } catch {
    return undefined;
  }
}
