/**
 * The held-out set: real replies (tests/fixtures/react-outputs/holdout.json) collected after the corpus, in
 * rounds, each from sources not used before, and scored before the parser was changed. Round 1 (issue 32)
 * scored 40/42 before its fixes and 41/42 after; round 2 (issue 43) scored 45/50 before and 49/50 after (two
 * of the four it gained, tool names holding a colon and LangChain's `AI:` answers, were fixed after their
 * misses were seen, so its first score is the fair one); round 3 (issue 43) scored 45/45 before any change; round 4
 * (issue 43, small local models) scored 16/19 before any change and 18/19 after (code in the Action, prose
 * settling the action to take); round 5 (issue 43, small local models again) scored 21/21, scored once with no
 * parser change after; round 6 (issue 43, small models: Gemma 2 2B/9B, Zephyr 7B, Qwen-7B-Chat, Llama-2-7B/13B
 * with the FireAct LoRA) scored 30/36 once, with no parser change after; its misreads were then fixed as
 * behaviours (a signature for values, apostrophes in bracket calls, a final answer that only plans), which took
 * round 6 to 36/36 and round 4 to 19/19, so rounds 4 to 6 are now tuned on; round 7 (issue 43, Llama-2-13b-chat
 * and AutoAct's agents tuned from it, drawn at random) scored 28/28, scored once with no parser change after; round 8
 * (issue 43, Llama-2-13b from KnowAgent's trajectories and ToolLLaMA-7B from ToolBench's answer trees, drawn at random
 * with seed 8) scored 39/40, scored once with no parser change after (the miss: ToolBench's `Finish` call delivered as
 * its whole JSON input). The floors only ever go up.
 */
import { describe, expect, it } from 'vitest';
import { parseReactOutput } from '../../../src/core/agent/react-parser.js';
import { loadHoldout, percent, scoreCorpus } from './react-corpus.js';

/** Correct readings per round when its floor was last raised. */
const FLOORS: Record<number, [number, number]> = {
  1: [41, 42],
  2: [49, 50],
  3: [45, 45],
  4: [19, 19],
  5: [21, 21],
  6: [36, 36],
  7: [28, 28],
  8: [39, 40],
};

const holdout = loadHoldout();

describe('parseReactOutput on the held-out replies', () => {
  it('holds at least 80 real replies, each with its public source', () => {
    expect(holdout.length).toBeGreaterThanOrEqual(80);
    for (const e of holdout) expect(e.source, e.file).toMatch(/^https:\/\/github\.com\//);
  });

  it.each(Object.entries(FLOORS))(
    'reads at least the recorded share of round %s',
    (round, [correct, total]) => {
      const entries = holdout.filter((e) => e.round === Number(round));
      expect(entries).toHaveLength(total);
      const score = scoreCorpus(entries, (e) => parseReactOutput(e.text, e.tools));
      const misread = score.misread.map(
        ({ entry, outcome }) => `  ${entry.file}: ${JSON.stringify(outcome)}`,
      );
      console.log(
        [
          `holdout round ${round}: ${score.correct}/${score.total} (${percent(score.correct, score.total)})`,
          ...misread,
        ].join('\n'),
      );
      expect(score.correct).toBeGreaterThanOrEqual(correct);
    },
  );
});
