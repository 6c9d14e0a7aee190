import type { RunView } from '../shared/run-view.js';
import type { SlackRenderer } from './render.js';

/**
 * A native renderer that can hand the run over: when its stream cannot start, `fallBack` builds the
 * edit-layout renderer, which is shown the run so far and renders the rest, so the run still ends with
 * an answer.
 */
export function createFallbackRenderer(
  native: (fallBack: () => void) => SlackRenderer,
  edit: () => SlackRenderer,
): SlackRenderer {
  let last: RunView | undefined;
  let fallback: SlackRenderer | undefined;
  const first = native(() => {
    if (fallback) return;
    fallback = edit();
    if (last) fallback.render(last);
  });
  return {
    render(view) {
      last = view;
      (fallback ?? first).render(view);
    },
    async finish(view) {
      last = view;
      await first.finish(view);
      if (fallback) await fallback.finish(view);
    },
    delivered: () => (fallback ?? first).delivered(),
    async answerTs() {
      // The stream's message, or, once the run was handed over, the edit layout's.
      const ts = await first.answerTs();
      return ts ?? (fallback ? fallback.answerTs() : undefined);
    },
  };
}
