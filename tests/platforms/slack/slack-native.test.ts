import { afterEach, describe, expect, it } from 'vitest';
import { taskCards, visibleText } from '../../fakes/slack-server.js';
import {
  ask,
  CHANNEL,
  mention,
  replies,
  type SlackHarness,
  startSlackHarness,
  topLevel,
} from './slack-harness.js';

const CALCULATOR_RUN = [
  {
    content: 'I will use the calculator.',
    toolCalls: [{ name: 'calculator', arguments: { expression: '123 * 456 + 789' } }],
  },
  { content: 'The result is **56877**.' },
];

describe('slack native streaming', () => {
  let h: SlackHarness;
  afterEach(async () => {
    await h?.close();
  });

  it('smoke', async () => {
    h = await startSlackHarness('http');
    h.model.script(...CALCULATOR_RUN);
    const question = mention('what is 123 * 456 + 789?');
    await ask(h, question);
    console.log(
      JSON.stringify(
        h.slack.calls.map((c) => [c.method, c.args, c.reply]),
        null,
        1,
      ),
    );
    const [answer] = replies(h, CHANNEL, question.ts);
    console.log(visibleText(answer!), '\n', taskCards(answer!));
    expect(topLevel(h)).toEqual([]);
  });
});
