import type { Logger } from '../logger.js';
import type { ApprovalWaitStore } from '../ports/approval-wait-store.js';
import type { RunQueue } from '../ports/run-queue.js';

/**
 * The line as the platforms see it: a question interrupted by its replica's death says whether a tool call
 * of its run still waits for approval (then a press goes on with it, and it need not be asked again).
 */
export function noticingWaits(
  line: RunQueue,
  waits: Pick<ApprovalWaitStore, 'waitsIn'>,
  logger?: Logger | undefined,
): RunQueue {
  return Object.assign(Object.create(line) as RunQueue, {
    onInterrupted(platform: string, handler: Parameters<RunQueue['onInterrupted']>[1]) {
      line.onInterrupted(platform, async (question) => {
        let waitingApproval = false;
        if (question.key) {
          waitingApproval = await waits.waitsIn(question.key).then(
            (kept) => kept.length > 0,
            (err: unknown) => {
              logger?.warn({ err }, 'could not count waiting tool calls');
              return false;
            },
          );
        }
        await handler({ ...question, waitingApproval });
      });
    },
  });
}
