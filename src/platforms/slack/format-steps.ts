import { OBSERVATION_CHARS, THOUGHT_CHARS } from '../shared/display-limits.js';
import { cut, formatAction, formatObservation } from '../shared/format-step.js';
import type { StepView } from '../shared/run-view.js';
import { SECTION_CHARS } from './limits.js';
import { markdownToMrkdwn, plainToMrkdwn } from './mrkdwn.js';

/** One reasoning step as mrkdwn, at most one section long: `*Thought:* …`, `*Action:* …`, `*Observation:* …`. */
export function formatStep(step: StepView): string {
  switch (step.kind) {
    case 'thought':
      return clampToSection(`*Thought:* ${markdownToMrkdwn(cut(step.text.trim(), THOUGHT_CHARS).text)}`);
    case 'action':
      // Backticks would end the code span early; the input is shown, not run.
      return clampToSection(
        `*Action:* \`${plainToMrkdwn(formatAction(step.tool, step.input).replace(/`/g, 'ˋ'))}\``,
      );
    case 'observation': {
      const label = step.ok ? '*Observation:*' : '*Observation (failed):*';
      const text = plainToMrkdwn(formatObservation(step.text, OBSERVATION_CHARS));
      // Tool output is quoted line by line: set apart from the model's words, and never read as markup.
      return clampToSection(
        `${label}\n${text
          .split('\n')
          .map((line) => `> ${line}`)
          .join('\n')}`,
      );
    }
    case 'note':
      return clampToSection(`_${plainToMrkdwn(step.text)}_`);
  }
}

// A last guard: escaping can lengthen text past what a section block holds.
function clampToSection(mrkdwn: string): string {
  return mrkdwn.length <= SECTION_CHARS ? mrkdwn : `${mrkdwn.slice(0, SECTION_CHARS - 1)}…`;
}
