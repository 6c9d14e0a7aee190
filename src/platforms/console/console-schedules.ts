import type { Assistant } from '../../core/assistant.js';
import type { Logger } from '../../core/logger.js';
import type { ScheduleDeliverer } from '../../core/schedules/create-scheduler.js';
import { askAndRender, type RunRenderer } from '../shared/run-renderer.js';
import { scheduleHeading } from '../shared/schedule-heading.js';
import { stepsShown } from '../shared/steps-shown.js';
import { createConsoleRenderer } from './console-renderer.js';

/** Where the terminal chat writes. */
export interface ConsoleTerminal {
  write(text: string): void;
  tty: boolean;
  readonly columns: number;
}

/** What a terminal needs to show scheduled runs. */
export interface ConsoleScheduleDeps {
  assistant: Assistant;
  terminal: ConsoleTerminal;
  logger: Logger;
  /** Aborted when the chat stops. */
  signal: AbortSignal;
  /** Adds the `y/n` prompts for calls that wait for approval (a scheduled or resumed run may reach one). */
  withPrompts?: ((renderer: RunRenderer) => RunRenderer) | undefined;
  /** Puts the person's prompt (and what they had typed) back once a run or a message has been written. */
  redrawPrompt?: (() => void) | undefined;
}

/**
 * Scheduled runs in the terminal chat: the reminder's heading, then the run rendered like a question typed
 * there (between the lines the person types, as a message would arrive in any chat).
 */
export function consoleScheduleDelivery(deps: ConsoleScheduleDeps): ScheduleDeliverer {
  const { assistant, terminal, logger } = deps;
  return {
    async deliverScheduled(run) {
      const { schedule } = run;
      terminal.write(`\n${scheduleHeading(run, schedule.creator.name, schedule.question)}\n`);
      await askAndRender({
        assistant,
        request: {
          key: schedule.key,
          settingsKey: schedule.settingsKey,
          author: schedule.creator.name,
          text: schedule.question,
          asker: run.asker,
          resume: run.resume,
        },
        renderer: (deps.withPrompts ?? ((r: RunRenderer) => r))(
          createConsoleRenderer(terminal, { showSteps: await stepsShown(assistant, schedule.key) }),
        ),
        signal: deps.signal,
        abortedBy: 'shutdown',
        logger,
      });
      deps.redrawPrompt?.();
    },
    async tellScheduleCreator(_schedule, text) {
      terminal.write(`\n${text}\n`);
      deps.redrawPrompt?.();
    },
    // The person at the terminal runs the bot: an admin, as every question typed there is.
    lookUpCreator: async () => ({ platformAdmin: true }),
  };
}
