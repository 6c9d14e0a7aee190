import type { AgentEvent } from '../../core/agent/events.js';
import { cut, formatAction, formatObservation } from '../shared/format-step.js';
import { SECTION_CHARS } from './limits.js';
import { markdownToMrkdwn, plainToMrkdwn } from './mrkdwn.js';

/** Longest observation shown in a thread (the model saw it whole). */
export const OBSERVATION_CHARS = 1500;
/** Longest thought shown (before conversion to mrkdwn). */
export const THOUGHT_CHARS = 2500;
/** Longest tool input shown in an Action line. */
export const ACTION_INPUT_CHARS = 300;

type StepEvent = Extract<AgentEvent, { type: 'thought' | 'action' | 'observation' }>;

/** True for the events shown as reasoning steps. */
export function isStepEvent(event: AgentEvent): event is StepEvent {
  return event.type === 'thought' || event.type === 'action' || event.type === 'observation';
}

/** One reasoning step as mrkdwn, at most one section long: `*Thought:* …`, `*Action:* …`, `*Observation:* …`. */
export function formatStep(event: StepEvent): string {
  switch (event.type) {
    case 'thought':
      return clampToSection(`*Thought:* ${markdownToMrkdwn(cut(event.text.trim(), THOUGHT_CHARS).text)}`);
    case 'action':
      // Backticks would end the code span early; the input is shown, not run.
      return clampToSection(
        `*Action:* \`${plainToMrkdwn(formatAction(event.tool, event.input, ACTION_INPUT_CHARS).replace(/`/g, 'ˋ'))}\``,
      );
    case 'observation': {
      const label = event.ok ? '*Observation:*' : '*Observation (failed):*';
      const text = plainToMrkdwn(formatObservation(event.text, OBSERVATION_CHARS));
      // Tool output is quoted line by line: set apart from the model's words, and never read as markup.
      return clampToSection(
        `${label}\n${text
          .split('\n')
          .map((line) => `> ${line}`)
          .join('\n')}`,
      );
    }
  }
}

// A last guard: escaping can lengthen text past what a section block holds.
function clampToSection(mrkdwn: string): string {
  return mrkdwn.length <= SECTION_CHARS ? mrkdwn : `${mrkdwn.slice(0, SECTION_CHARS - 1)}…`;
}
