import type { App, BlockAction, RespondFn, types, ViewSubmitAction } from '@slack/bolt';
import type { Approver, DecidedElsewhere } from '../../core/approvals/create-approvals.js';
import { MAX_REASON_CHARS } from '../../core/approvals/create-approvals.js';
import type { Assistant } from '../../core/assistant.js';
import { slackPrincipal } from '../../core/governance/principal.js';
import type { Logger } from '../../core/logger.js';
import { parseRunActionId } from '../shared/run-actions.js';
import { WORDING } from '../shared/wording.js';
import type { WorkTracker } from '../shared/work-tracker.js';
import { decidedBlocks } from './approval-blocks.js';
import { argumentsModal } from './arguments-modal.js';
import { textModal } from './text-modal.js';
import type { UserDirectory } from './user-names.js';

/** The Deny form's callback_id. */
export const DENY_VIEW = 'tt_approval_deny';

/** What the approval buttons need. */
export interface ApprovalButtonDeps {
  assistant: Assistant;
  users: UserDirectory;
  work: WorkTracker;
  logger: Logger;
}

/** Which pending call the Deny form answers, and where to say privately that it could not. */
interface DenyTarget {
  id: string;
  channel: string;
  threadTs?: string | undefined;
  /** The approval message pressed on. */
  ts?: string | undefined;
}

/** The Deny form: an optional reason the model reads. */
export function denyModal(target: DenyTarget): types.ModalView {
  return textModal({
    callbackId: DENY_VIEW,
    metadata: JSON.stringify(target),
    title: 'Deny this tool call',
    submit: 'Deny',
    close: 'Cancel',
    field: 'reason',
    label: 'Why? The model reads it.',
    maxLength: MAX_REASON_CHARS,
  });
}

/**
 * Approve and Deny under a pending call, in both layouts. Slack gives 3 s to acknowledge, and a press's
 * trigger_id lives 3 s: Deny opens its form first, before any lookup; the decision itself (who may decide,
 * which can need a users.info lookup) is made after. Presses that change nothing get a private line.
 */
export function registerApprovalButtons(app: App, deps: ApprovalButtonDeps): void {
  const { logger } = deps;
  app.action<BlockAction>(
    /^tt:(?:approve|deny):/,
    async ({ ack, body, action, respond, client, context }) => {
      await ack();
      const value = 'value' in action && typeof action.value === 'string' ? action.value : '';
      const pressed = parseRunActionId(value) ?? parseRunActionId(action.action_id);
      if (!pressed) return;
      const channel = body.channel?.id ?? body.container?.channel_id ?? '';
      if (pressed.action === 'deny') {
        if (!body.trigger_id) return;
        const threadTs = body.message?.thread_ts ?? body.container?.thread_ts;
        const ts = body.message?.ts ?? body.container?.message_ts;
        await client.views
          .open({
            trigger_id: body.trigger_id,
            view: denyModal({ id: pressed.runId, channel, threadTs, ts }),
          })
          .catch((err: unknown) => logger.warn({ err }, 'could not open the deny form'));
        return;
      }
      const who = approver(deps, client, body.user.id, body.user.team_id ?? context.teamId);
      const ts = body.message?.ts ?? body.container?.message_ts;
      deps.work.run('a Slack approval', async () => {
        const press = await decide(deps, pressed.runId, await who, { approve: true });
        if (typeof press === 'string') await privately(respond, press, logger);
        else if (press) await showDecided(client, { channel, ts }, press, logger);
      });
    },
  );

  registerShowArguments(app, deps);

  app.view<ViewSubmitAction>(DENY_VIEW, async ({ ack, view, body, client }) => {
    await ack();
    const target = parseTarget(view.private_metadata);
    if (!target) return;
    const reason = view.state.values.reason?.reason?.value?.trim() || undefined;
    deps.work.run('a Slack denial', async () => {
      const who = await approver(deps, client, body.user.id, body.user.team_id ?? body.team?.id);
      const press = await decide(deps, target.id, who, { approve: false, reason });
      if (!press) return;
      if (typeof press !== 'string') return showDecided(client, target, press, logger);
      await client.chat
        .postEphemeral({
          channel: target.channel,
          user: body.user.id,
          text: press,
          ...(target.threadTs ? { thread_ts: target.threadTs } : {}),
        })
        .catch((err: unknown) => logger.warn({ err }, 'could not answer a denial'));
    });
  });
}

/**
 * "Show all arguments": a modal with the call's whole arguments for one who may decide it, else the private
 * line why not. The press's trigger_id lives 3 s, so the check does not wait for the presser's name.
 */
function registerShowArguments(app: App, deps: ApprovalButtonDeps): void {
  const { logger } = deps;
  app.action<BlockAction>(/^tt:args:/, async ({ ack, body, action, respond, client, context }) => {
    await ack();
    const value = 'value' in action && typeof action.value === 'string' ? action.value : '';
    const pressed = parseRunActionId(value) ?? parseRunActionId(action.action_id);
    const triggerId = body.trigger_id;
    if (pressed?.action !== 'args' || !triggerId) return;
    const userId = body.user.id;
    const who: Approver = {
      principal: slackPrincipal(userId, body.user.team_id ?? context.teamId),
      name: userId,
      platformAdmin: deps.users(client, userId).then((u) => u.admin),
    };
    deps.work.run('a Slack arguments view', async () => {
      const call = deps.assistant.approvalCall
        ? await deps.assistant.approvalCall(pressed.runId, who).catch((err: unknown) => {
            logger.error({ err }, 'could not look up a pending call');
            return { status: 'forbidden' as const, message: WORDING.commandFailed };
          })
        : { status: 'expired' as const, message: WORDING.answerFinished };
      if (call.status !== 'allowed') return privately(respond, call.message, logger);
      await client.views
        .open({ trigger_id: triggerId, view: argumentsModal(call.tool, call.input) })
        .catch(async (err: unknown) => {
          logger.warn({ err }, 'could not show the arguments');
          await privately(respond, ARGUMENTS_FAILED, logger);
        });
    });
  });
}

/** The private line when the arguments modal could not open (e.g. its trigger expired). */
const ARGUMENTS_FAILED = 'Could not show the arguments just now. Press the button again.';

/**
 * Decides; resolves with the private line to give when nothing changed, with how it ended when the run is
 * not in this process (nothing here updates its message), else undefined.
 */
async function decide(
  deps: ApprovalButtonDeps,
  id: string,
  who: Approver,
  verdict: Parameters<NonNullable<Assistant['decideApproval']>>[2],
): Promise<string | DecidedElsewhere | undefined> {
  if (!deps.assistant.decideApproval) return WORDING.answerFinished;
  try {
    const press = await deps.assistant.decideApproval(id, who, verdict);
    return 'message' in press ? press.message : press.elsewhere;
  } catch (err) {
    deps.logger.error({ err }, 'could not decide an approval');
    return WORDING.commandFailed;
  }
}

async function approver(
  deps: ApprovalButtonDeps,
  client: Parameters<UserDirectory>[0],
  userId: string,
  team: string | undefined,
): Promise<Approver> {
  const user = deps.users(client, userId);
  const name = await user.then(
    (u) => u.name,
    () => userId,
  );
  return {
    principal: slackPrincipal(userId, team),
    name,
    platformAdmin: user.then((u) => u.admin),
  };
}

/** A line only the presser sees, under the message they pressed on. */
async function privately(respond: RespondFn, text: string, logger: Logger): Promise<void> {
  try {
    await respond({ response_type: 'ephemeral', replace_original: false, text });
  } catch (err) {
    logger.warn({ err }, 'could not answer a button press');
  }
}

function parseTarget(metadata: string): DenyTarget | undefined {
  try {
    const target = JSON.parse(metadata) as Partial<DenyTarget>;
    if (typeof target.id !== 'string' || typeof target.channel !== 'string') return undefined;
    return {
      id: target.id,
      channel: target.channel,
      ...(typeof target.threadTs === 'string' ? { threadTs: target.threadTs } : {}),
      ...(typeof target.ts === 'string' ? { ts: target.ts } : {}),
    };
  } catch {
    return undefined;
  }
}

/** The approval message pressed on, once decided for a run elsewhere: as its renderer would leave it. */
async function showDecided(
  client: App['client'],
  where: { channel: string; ts?: string | undefined },
  decided: DecidedElsewhere,
  logger: Logger,
): Promise<void> {
  if (!where.ts) return;
  await client.chat
    .update({
      channel: where.channel,
      ts: where.ts,
      text: decided.note,
      blocks: decidedBlocks(decided.call, decided.note),
    })
    .catch((err: unknown) => logger.warn({ err }, 'could not close a decided approval'));
}
