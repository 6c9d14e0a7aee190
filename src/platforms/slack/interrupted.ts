import type { webApi } from '@slack/bolt';
import type { Logger } from '../../core/logger.js';
import type { Interrupted } from '../../core/ports/run-queue.js';
import { WORDING } from '../shared/wording.js';
import { buildMessage } from './limits.js';
import { plainToMrkdwn } from './mrkdwn.js';

/** Where a Slack question's placeholder is (recorded in the shared line once posted). */
interface Placeholder {
  channel: string;
  ts: string;
}

/**
 * Replaces the placeholder of a question whose replica died before answering with the "ask again" notice,
 * or, when a tool call of its run still waits for approval, with the note that a press goes on with it.
 */
export async function sayInterrupted(
  client: webApi.WebClient,
  question: Interrupted,
  logger: Logger,
): Promise<void> {
  const where = question.where as Partial<Placeholder> | undefined;
  if (typeof where?.channel !== 'string' || typeof where.ts !== 'string') return;
  const text = question.waitingApproval ? WORDING.restartedWaiting : WORDING.interrupted;
  const message = buildMessage([`:warning: ${plainToMrkdwn(text)}`]);
  await client.chat.update({ channel: where.channel, ts: where.ts, ...message, parse: 'none' });
  logger.info({ channel: where.channel }, 'said that an interrupted answer must be asked again');
}
