import type { AskRequest, Assistant } from '../../core/assistant.js';
import type { Logger } from '../../core/logger.js';
import type { StepsPlacement } from '../../core/settings/channel-settings.js';
import type { RunControl } from './run-registry.js';
import { applyEvent, createRunView, endFromOutcome, markStopped, type RunView } from './run-view.js';
import { WORDING } from './wording.js';

/** How one platform shows a run: it is handed the shared view, and only ever renders that. */
export interface RunRenderer {
  /** Called after each visible change while the run goes on; must not throw or block. */
  render(view: RunView): void;
  /** Called once with the ended view; resolves when everything is delivered (or has failed and been logged). */
  finish(view: RunView): Promise<void>;
}

/** What {@link askAndRender} needs. */
export interface AskAndRenderOptions {
  assistant: Assistant;
  request: Omit<AskRequest, 'signal'>;
  renderer: RunRenderer;
  /** Cancels the run. */
  signal: AbortSignal;
  /**
   * Who aborts `signal`: `shutdown` (the grace period is over; the run ends with the restart notice) or
   * the `asker` (Ctrl+C in the terminal; the run ends as cancelled).
   */
  abortedBy: 'shutdown' | 'asker';
  /** Who pressed Stop (a name), once someone did; such a run ends as stopped rather than cancelled. */
  stoppedBy?: (() => string | undefined) | undefined;
  logger: Logger;
}

/**
 * {@link askAndRender} for a run with Stop buttons: cancelled by a Stop press or by shutdown, and ended
 * (a later press says the answer is finished) however it ends.
 */
export async function askAndRenderRun(
  run: RunControl,
  options: Omit<AskAndRenderOptions, 'signal' | 'abortedBy' | 'stoppedBy'>,
): Promise<RunView> {
  try {
    return await askAndRender({
      ...options,
      signal: run.signal,
      abortedBy: 'shutdown',
      stoppedBy: run.stoppedBy,
    });
  } finally {
    run.end();
  }
}

/**
 * Asks the assistant and has `renderer` show the run as it goes; never throws. A run cut short by
 * shutdown says so where its answer would have been, rather than a bare "Cancelled".
 */
export async function askAndRender(options: AskAndRenderOptions): Promise<RunView> {
  const { renderer, signal, logger } = options;
  const view = createRunView();
  const show = () => {
    try {
      renderer.render(view);
    } catch (err) {
      logger.error({ err }, 'could not render a run');
    }
  };
  let outcome: Awaited<ReturnType<Assistant['ask']>> | undefined;
  try {
    outcome = await options.assistant.ask({ ...options.request, signal }, (event) => {
      if (applyEvent(view, event)) show();
    });
  } catch (err) {
    // The assistant promises not to throw; if it does, the asker still gets an ending.
    logger.error({ err }, 'assistant.ask threw');
  }
  const stopper = options.stoppedBy?.();
  if (stopper !== undefined && view.phase !== 'final') {
    markStopped(view, stopper);
  } else if (signal.aborted && options.abortedBy === 'shutdown' && view.phase !== 'final') {
    view.phase = 'cancelled';
    view.error = {
      code: 'cancelled',
      message: view.keptApprovals ? WORDING.restartedWaiting : WORDING.restarted,
    };
  }
  endFromOutcome(view, outcome);
  try {
    await renderer.finish(view);
  } catch (err) {
    logger.error({ err }, 'could not deliver the end of a run');
  }
  return view;
}

/** Where a channel's settings put the steps; a thread (the default) when they cannot be read. */
export async function stepsPlacement(
  assistant: Assistant,
  settingsKey: string,
  logger: Logger,
): Promise<StepsPlacement> {
  try {
    return (await assistant.settingsIn(settingsKey)).steps;
  } catch (err) {
    logger.warn({ err }, 'could not read where this channel’s steps go; using a thread');
    return 'thread';
  }
}
