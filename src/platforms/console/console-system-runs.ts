import type { Assistant } from '../../core/assistant.js';
import type { Logger } from '../../core/logger.js';
import type { SystemRunDelivery } from '../../core/ports/system-run-delivery.js';
import { systemRunRequest } from '../../core/runs/system-run-request.js';
import { askAndRender, type RunRenderer } from '../shared/run-renderer.js';
import { stepsShown } from '../shared/steps-shown.js';
import { systemRunHeading } from '../shared/system-run-heading.js';
import { createConsoleRenderer } from './console-renderer.js';

/** Where the terminal chat writes. */
export interface ConsoleTerminal {
  write(text: string): void;
  tty: boolean;
  readonly columns: number;
}

/** What a terminal needs to show runs nobody just asked for. */
export interface ConsoleSystemRunDeps {
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
 * Runs nobody just asked for in the terminal chat (schedules, runs going on after a restart): the line
 * saying why, then the run rendered like a question typed there (between the lines the person types, as a
 * message would arrive in any chat).
 */
export function consoleSystemRunDelivery(deps: ConsoleSystemRunDeps): SystemRunDelivery {
  const { assistant, terminal, logger } = deps;
  return {
    async deliver(run) {
      terminal.write(`\n${systemRunHeading(run, run.author, run.question)}\n`);
      await askAndRender({
        assistant,
        request: systemRunRequest(run),
        renderer: (deps.withPrompts ?? ((r: RunRenderer) => r))(
          createConsoleRenderer(terminal, { showSteps: await stepsShown(assistant, run.key) }),
        ),
        signal: deps.signal,
        abortedBy: 'shutdown',
        logger,
      });
      deps.redrawPrompt?.();
    },
    async tell(_to, text) {
      terminal.write(`\n${text}\n`);
      deps.redrawPrompt?.();
    },
    // The person at the terminal runs the bot: an admin, as every question typed there is.
    lookUp: async () => ({ platformAdmin: true }),
  };
}
