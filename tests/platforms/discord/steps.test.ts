import { describe, expect, it } from 'vitest';
import { threadName } from '../../../src/platforms/discord/limits.js';
import {
  createStepPoster,
  createStepsMessage,
  fitSteps,
  formatStep,
} from '../../../src/platforms/discord/steps.js';
import { CARD_HEADER, CARD_LIMITS, fitCard } from '../../../src/platforms/discord/steps-card.js';
import { moreSteps } from '../../../src/platforms/shared/wording.js';
import { waitUntil } from '../../helpers/wait-until.js';

const tick = (ms = 5) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Discord steps', () => {
  it('formats the steps so tool text cannot break out of its code', () => {
    const action = formatStep({
      kind: 'action',
      step: 1,
      tool: 'read_file',
      input: { path: 'a`b' },
    });
    expect(action).toBe('**Action:** `` read_file {"path":"a`b"} ``');
    const observation = formatStep({
      kind: 'observation',
      step: 1,
      tool: 'read_file',
      text: 'x```y',
      ok: true,
    });
    expect(observation.match(/```/g)).toHaveLength(2);
  });

  it('trims a long observation and says how long it was', () => {
    const text = 'word '.repeat(1000);
    const shown = formatStep({ kind: 'observation', step: 1, tool: 't', text, ok: true });
    expect(shown.length).toBeLessThan(2000);
    expect(shown).toContain('5,000 characters in full');
  });

  it('names threads on one line within 100 characters', () => {
    expect(threadName('what is\n 2 + 2?')).toBe('what is 2 + 2?');
    const long = threadName('why '.repeat(60));
    expect(long.length).toBeLessThanOrEqual(100);
    expect(long.endsWith('…')).toBe(true);
    expect(threadName('   ')).toBe('Reasoning');
  });

  it('keeps the latest steps when they outgrow one message', () => {
    const steps = Array.from({ length: 30 }, (_, i) => `step ${i} ${'x'.repeat(100)}`);
    const text = fitSteps(steps);
    expect(text.length).toBeLessThanOrEqual(2000);
    expect(text).toContain('step 29');
    expect(text).not.toContain('step 0 ');
    expect(text).toMatch(/earlier steps not shown/);
  });

  it('posts steps in order, one request at a time, batching those that pile up', async () => {
    const posted: string[] = [];
    let active = 0;
    const poster = createStepPoster(
      async (text) => {
        expect(++active).toBe(1);
        await tick();
        posted.push(text);
        active--;
      },
      () => {},
    );
    for (let i = 1; i <= 5; i++) poster.push(`step ${i}`);
    await poster.finish();
    expect(posted.join('\n')).toBe('step 1\nstep 2\nstep 3\nstep 4\nstep 5');
    expect(posted.length).toBeLessThan(5);
  });

  it('ends the steps message with every step, even when it finishes during an edit', async () => {
    let content = '';
    const gates: (() => void)[] = [];
    const gate = () => new Promise<void>((resolve) => gates.push(resolve));
    const until = (condition: () => boolean) => waitUntil(condition, { what: 'the next gated request' });
    const steps = createStepsMessage(
      async (text) => {
        await gate();
        content = text;
        return async (next) => {
          await gate();
          content = next;
        };
      },
      0,
      () => {},
    );
    steps.push('one');
    steps.push('two');
    await until(() => gates.length === 1);
    gates.shift()!(); // the message is posted; the edit to "one two" starts
    await until(() => gates.length === 1);
    let finished = false;
    const done = steps.finish().then(() => {
      finished = true;
    });
    // Each request is let through as it arrives, until finish() has delivered the last text.
    await waitUntil(
      () => {
        gates.shift()?.();
        return finished;
      },
      { what: 'finish() to deliver every step' },
    );
    await done;
    expect(content).toBe('one\ntwo');
  });
});

describe('Discord steps card (components v2)', () => {
  const textOf = (texts: string[]) => texts.join('').length;

  it('shows every step when they fit, with no "more steps" line', () => {
    const steps = Array.from({ length: 37 }, (_, i) => `step ${i}`);
    expect(fitCard(steps)).toEqual([CARD_HEADER, ...steps]);
  });

  it('cuts by count and by characters, counting what is left out', () => {
    const byCount = fitCard(Array.from({ length: 38 }, (_, i) => `step ${i}`));
    expect(byCount).toHaveLength(CARD_LIMITS.components - 2); // the container and the separator
    expect(byCount.at(-1)).toBe(`-# ${moreSteps(2)}`); // 36 shown of 38
    const byText = fitCard(Array.from({ length: 5 }, () => 'x'.repeat(1_500)));
    expect(textOf(byText)).toBeLessThanOrEqual(CARD_LIMITS.text);
    expect(byText.at(-1)).toBe(`-# ${moreSteps(3)}`);
  });

  it('shows the beginning of a first step too long alone', () => {
    const texts = fitCard(['y'.repeat(5_000)]);
    expect(textOf(texts)).toBeLessThanOrEqual(CARD_LIMITS.text);
    expect(texts[1]!.startsWith('yyy')).toBe(true);
  });
});
