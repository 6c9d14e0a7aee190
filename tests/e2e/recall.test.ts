import { afterEach, describe, expect, it, vi } from 'vitest';
import { echoSummary, isSummaryRequest, shownText } from '../core/memory/fixture.js';
import type { RecordedRequest, Responder } from '../fakes/openai-server.js';
import { visibleText } from '../fakes/slack-server.js';
import {
  ask,
  CHANNEL,
  mention,
  type SlackHarness,
  startSlackHarness,
  topLevel,
} from '../platforms/slack/slack-harness.js';

const OTHER = 'C0002';
const PLANTED_AT = '2026-03-12T15:04:00Z';
const QUESTION = 'What was the error code when the checkout service crashed back in March?';

/** The text of a request's last message. */
const lastText = (request: RecordedRequest) => {
  const content = request.body.messages.at(-1)?.content;
  return typeof content === 'string' ? content : '';
};

/**
 * The scripted model: summaries as the memory tests' summariser writes them (it keeps only lines saying
 * "remember", which the planted fact does not), `ok: …` to small talk, and for {@link QUESTION} a `recall`
 * call with the question's keywords, then an answer made of what the observation holds.
 */
const responder: Responder = (request) => {
  if (isSummaryRequest(request)) return { content: echoSummary(request) };
  const last = request.body.messages.at(-1);
  if (last?.role === 'tool') {
    const observation = lastText(request);
    const hit = /(\d{4}-\d{2}-\d{2}) \d{2}:\d{2}, [^\n]*\n[^\n]*?(E[A-Z]+_\d+)/.exec(observation);
    return {
      content: hit ? `It failed with ${hit[2]}, on ${hit[1]}.` : 'I could not find it in this channel.',
    };
  }
  if (lastText(request).includes(QUESTION)) {
    return {
      content: 'Let me look that up.',
      toolCalls: [{ name: 'recall', arguments: { query: 'checkout crashed error code' } }],
    };
  }
  return { content: `ok: ${lastText(request).slice(-60)}` };
};

// 300 real turns through the Slack adapter and the core take a while on a loaded machine.
describe('recall through Slack', { timeout: 240_000 }, () => {
  let h: SlackHarness | undefined;
  afterEach(async () => {
    vi.useRealTimers();
    await h?.close();
    h = undefined;
  });

  it('answers a fact from 300 turns ago, long folded into the summary, via recall with its date; never another channel’s', async () => {
    h = await startSlackHarness('http', {
      env: {
        SLACK_STREAMING: 'edit',
        MEMORY_MAX_TOKENS: '400',
        MEMORY_KEEP_TURNS: '2',
        RATE_LIMIT_USER: '1000/hour',
        RATE_LIMIT_CHANNEL: '1000/hour',
      },
      model: { fallback: responder },
    });
    // The planted turn, on a day of its own (only Date is faked: the servers' timers run as ever).
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(PLANTED_AT));
    await ask(h, mention('the checkout service crashed again, the log says ECHECKOUT_50213 upstream reset'));
    vi.useRealTimers();
    // Another channel has a crash of its own, with the same words.
    await ask(h, mention('the checkout service crashed too, error code EOTHERCHAN_777', { channel: OTHER }));
    for (let n = 1; n <= 300; n++) {
      await ask(h, mention(`small talk ${n}: the build of branch feature-${n} is green, coffee later?`));
    }
    const before = h.model.requests.length;
    await ask(h, mention(QUESTION));

    const run = h.model.requests.slice(before).filter((r) => !isSummaryRequest(r));
    expect(run).toHaveLength(2);
    // The fact is long out of the prompt (turns and summary): only recall can bring it back.
    expect(shownText(run[0]!)).not.toContain('ECHECKOUT_50213');
    expect(shownText(run[0]!)).toMatch(/Summary of the earlier conversation/);
    expect(run[0]!.body.tools?.map((t) => t.function.name)).toContain('recall');
    const observation = lastText(run[1]!);
    expect(run[1]!.body.messages.at(-1)?.role).toBe('tool');
    expect(observation).toMatch(
      /2026-03-12 15:04, \S+ asked: the checkout service crashed again, the log says ECHECKOUT_50213/,
    );
    expect(observation).not.toContain('EOTHERCHAN_777');
    const answer = topLevel(h, CHANNEL).at(-1)!;
    expect(visibleText(answer)).toContain('It failed with ECHECKOUT_50213, on 2026-03-12.');

    // From the other channel, the same question finds only that channel's turn.
    const other = h.model.requests.length;
    await ask(h, mention(QUESTION, { channel: OTHER }));
    const elsewhere = h.model.requests.slice(other).filter((r) => !isSummaryRequest(r));
    const seen = lastText(elsewhere[1]!);
    expect(seen).toContain('EOTHERCHAN_777');
    expect(seen).not.toContain('ECHECKOUT_50213');
    expect(visibleText(topLevel(h, OTHER).at(-1)!)).toMatch(/EOTHERCHAN_777, on \d{4}-\d{2}-\d{2}\./);
  });
});
