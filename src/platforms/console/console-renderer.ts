import { styleText } from 'node:util';
import { OBSERVATION_CHARS } from '../shared/display-limits.js';
import { formatAction, formatObservation } from '../shared/format-step.js';
import { renderIncrementally } from '../shared/render-incrementally.js';
import type { RunRenderer } from '../shared/run-renderer.js';
import { outcomeText, type StepView } from '../shared/run-view.js';
import { moreSteps } from '../shared/wording.js';
import { terminalSafe } from './terminal-text.js';

type Style = Parameters<typeof styleText>[0];

/** Where and how the console writes. */
export interface ConsoleOutput {
  write(text: string): void;
  /** Interactive terminal: colours, live streaming, erasing a retracted answer. */
  tty: boolean;
  columns?: number;
}

/** Renders a run view as labelled lines: Thought, Action, Observation, then Answer (or Error). */
export function createConsoleRenderer(
  out: ConsoleOutput,
  options: { showSteps?: boolean } = {},
): RunRenderer {
  const paint = (style: Style, text: string) =>
    out.tty && !process.env.NO_COLOR ? styleText(style, text) : text;
  const label = (name: string, style: Style) => paint([style, 'bold'] as unknown as Style, `${name}:`);
  /** The answer text written live so far (terminals only; pipes get the final text once). */
  let printed = '';

  const erasePrinted = () => {
    if (!printed) return;
    const columns = out.columns ?? 80;
    const rows = `Answer: ${printed}`
      .split('\n')
      .reduce((n, line) => n + Math.max(1, Math.ceil(line.length / columns)), 0);
    out.write(`\r\x1b[K${'\x1b[1A\x1b[K'.repeat(rows - 1)}`);
    printed = '';
  };

  const stepLine = (step: StepView): string => {
    switch (step.kind) {
      case 'thought':
        return `${label('Thought', 'cyan')} ${paint('dim', terminalSafe(step.text))}`;
      case 'action':
        return `${label('Action', 'yellow')} ${terminalSafe(formatAction(step.tool, step.input))}`;
      case 'observation':
        return `${label('Observation', step.ok ? 'blue' : 'red')} ${paint('dim', terminalSafe(formatObservation(step.text, OBSERVATION_CHARS)))}`;
      case 'note':
        return paint('dim', terminalSafe(step.text));
    }
  };

  const showAnswer = (raw: string) => {
    const answer = terminalSafe(raw);
    if (!answer.startsWith(printed)) erasePrinted();
    const rest = answer.slice(printed.length);
    if (!rest) return;
    if (!printed) out.write(`${label('Answer', 'green')} `);
    out.write(rest);
    printed = answer;
  };

  return renderIncrementally(
    {
      step(step) {
        erasePrinted();
        out.write(`${stepLine(step)}\n`);
      },
      streaming(answer) {
        if (out.tty) showAnswer(answer);
      },
      stepsCut(count) {
        erasePrinted();
        out.write(`${paint('dim', moreSteps(count))}\n`);
      },
      async end(view) {
        const shown = outcomeText(view);
        const text = terminalSafe(shown.text);
        if (shown.kind === 'answer' && out.tty && printed && printed === text) {
          out.write('\n');
        } else {
          erasePrinted();
          if (shown.kind === 'answer') out.write(`${label('Answer', 'green')} ${text}\n`);
          // Ctrl+C is the user's own choice, not an error.
          else if (view.phase === 'cancelled' && view.error?.code === 'cancelled')
            out.write(`${paint('dim', text)}\n`);
          else out.write(`${label('Error', 'red')} ${text}\n`);
        }
        if (shown.kind === 'answer' && shown.note) out.write(`${paint('yellow', `(${shown.note})`)}\n`);
        printed = '';
      },
    },
    options,
  );
}
