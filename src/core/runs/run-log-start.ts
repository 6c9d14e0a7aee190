import type { AgentEventHandler } from '../agent/events.js';
import type { ResumedRun } from '../approvals/wait-state.js';
import type { Asker } from '../governance/asker.js';
import type { Logger } from '../logger.js';
import type { RunLogStart, RunLogStore } from '../ports/run-log-store.js';
import { createRunLogRecorder, type RunLogRecorder } from './run-log-recorder.js';

/** What keeping run logs needs of the store. */
export type RunLogKeeper = Pick<RunLogStore, 'saveRunLog' | 'runDetail'>;

/** A recorder for a question just admitted; a scheduled one's log starts by saying which schedule asked. */
export function newRunRecorder(onEvent: AgentEventHandler, start: RunLogStart, asker: Asker): RunLogRecorder {
  const notice = asker.viaSchedule
    ? { code: 'scheduled' as const, text: `Asked by the schedule ${asker.viaSchedule}, as its creator.` }
    : undefined;
  return createRunLogRecorder(onEvent, start, Date.now, { notice });
}

/**
 * A recorder for a run taken over after its process stopped: its log goes on from the steps kept before
 * the restart (times counted from when it was asked), after a `resumed` notice.
 */
export async function resumedRunRecorder(
  store: RunLogKeeper,
  onEvent: AgentEventHandler,
  resumed: ResumedRun,
  usageId: number,
  logger: Logger | undefined,
): Promise<RunLogRecorder> {
  const before = await store.runDetail(usageId).catch((err: unknown) => {
    logger?.warn({ key: resumed.key, err }, 'could not read the log of a resumed run');
    return undefined;
  });
  const { run } = resumed;
  const start: RunLogStart = {
    usageId,
    at: before?.at ?? Date.now(),
    platform: resumed.platform,
    key: resumed.key,
    userId: run.asker.principal,
    question: run.question,
  };
  return createRunLogRecorder(onEvent, start, Date.now, {
    began: before?.at,
    earlier: before?.log?.steps,
    notice: {
      code: 'resumed',
      text: 'Taken over after a restart: the process running it stopped while it waited for approval.',
    },
  });
}
