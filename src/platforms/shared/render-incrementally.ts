import { STEPS_SHOWN_MAX } from './display-limits.js';
import type { RunRenderer } from './run-renderer.js';
import { createRunView, isEnded, placeholderText, type RunView, type StepView } from './run-view.js';

/** What a platform does with a run view, piece by piece. */
export interface IncrementalRendering {
  /** A step not shown before, in order. */
  step(step: StepView): void;
  /**
   * The answer so far, while the run goes on; '' when streamed text was retracted and the model thinks again
   * (or, with nothing written, when the placeholder changes: a call starts or stops waiting for approval).
   */
  streaming(answer: string, view: RunView): void;
  /** The ended view (every step already shown); resolves once everything is delivered. */
  end(view: RunView): Promise<void>;
  /** Called before `end` when more than STEPS_SHOWN_MAX steps were made: how many were not shown. */
  stepsCut(count: number): void;
}

/**
 * A renderer from the three pieces: each new step once, each change of the streaming answer once, and the
 * end. The final answer is left to `end`, which shows it whole rather than as a preview. With `showSteps`
 * false (`/settings steps off`) no step is shown.
 */
export function renderIncrementally(
  rendering: IncrementalRendering,
  options: { showSteps?: boolean } = {},
): RunRenderer {
  if (options.showSteps === false) rendering = { ...rendering, step() {}, stepsCut() {} };
  let stepsShown = 0;
  let answerShown = '';
  let placeholderShown = placeholderText(createRunView());
  // However many steps a run makes (a model can call a thousand tools), at most STEPS_SHOWN_MAX are rendered.
  const showSteps = (view: RunView) => {
    const until = Math.min(view.steps.length, STEPS_SHOWN_MAX);
    for (; stepsShown < until; stepsShown++) rendering.step(view.steps[stepsShown]!);
  };
  return {
    render(view) {
      showSteps(view);
      if (isEnded(view)) return;
      const placeholder = placeholderText(view);
      if (view.answer === answerShown && (view.answer !== '' || placeholder === placeholderShown)) return;
      answerShown = view.answer;
      placeholderShown = placeholder;
      rendering.streaming(view.answer, view);
    },
    async finish(view) {
      showSteps(view);
      if (view.steps.length > stepsShown) rendering.stepsCut(view.steps.length - stepsShown);
      await rendering.end(view);
    },
  };
}
