import { styleText } from 'node:util';
import type { AgentEvent } from '../../core/agent/events.js';
import { formatAction, formatObservation } from '../shared/format-step.js';

type Style = Parameters<typeof styleText>[0];

/** Where and how the console writes. */
export interface ConsoleOutput {
  write(text: string): void;
  /** Interactive terminal: colours, live streaming, erasing a retracted answer. */
  tty: boolean;
  columns?: number;
}

/** Longest observation shown in the terminal. */
const OBSERVATION_CHARS = 1500;

/** Renders one run's events as labelled lines: Thought, Action, Observation, Answer. */
export function createConsoleRenderer(out: ConsoleOutput): (event: AgentEvent) => void {
  const paint = (style: Style, text: string) =>
    out.tty && !process.env.NO_COLOR ? styleText(style, text) : text;
  const label = (name: string, style: Style) => paint([style, 'bold'] as unknown as Style, `${name}:`);
  let streamed = '';

  const eraseStreamed = () => {
    const columns = out.columns ?? 80;
    const rows = `Answer: ${streamed}`
      .split('\n')
      .reduce((n, line) => n + Math.max(1, Math.ceil(line.length / columns)), 0);
    out.write(`\r\x1b[K${'\x1b[1A\x1b[K'.repeat(rows - 1)}`);
    streamed = '';
  };

  return (event) => {
    switch (event.type) {
      case 'thought':
        out.write(`${label('Thought', 'cyan')} ${paint('dim', event.text)}\n`);
        break;
      case 'action':
        out.write(`${label('Action', 'yellow')} ${formatAction(event.tool, event.input)}\n`);
        break;
      case 'observation':
        out.write(
          `${label('Observation', event.ok ? 'blue' : 'red')} ${paint('dim', formatObservation(event.text, OBSERVATION_CHARS))}\n`,
        );
        break;
      case 'answer_delta':
        if (!out.tty) break; // pipes get the final text once, so scripts see exactly the answer
        if (!streamed) out.write(`${label('Answer', 'green')} `);
        streamed += event.text;
        out.write(event.text);
        break;
      case 'answer_reset':
        if (out.tty && streamed) eraseStreamed();
        break;
      case 'answer':
        if (out.tty && streamed === event.text) {
          out.write('\n');
        } else {
          if (out.tty && streamed) eraseStreamed();
          out.write(`${label('Answer', 'green')} ${event.text}\n`);
        }
        streamed = '';
        break;
      case 'error':
        if (out.tty && streamed) eraseStreamed();
        out.write(`${label('Error', 'red')} ${event.message}\n`);
        break;
    }
  };
}
