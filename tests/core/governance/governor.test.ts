import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AgentEvent } from '../../../src/core/agent/events.js';
import type { AskOutcome } from '../../../src/core/assistant.js';
import type { Asker } from '../../../src/core/governance/asker.js';
import { createGate } from '../../helpers/gate.js';
import { startTestCore, type TestCore } from '../../helpers/test-core.js';

const alice: Asker = {
  platform: 'slack',
  userId: 'UALICE',
  principal: 'slack:T1:UALICE',
  channelId: 'C1',
  dm: false,
};
const bob: Asker = { ...alice, userId: 'UBOB', principal: 'slack:T1:UBOB' };

describe('governance through the real core', () => {
  let t: TestCore | undefined;
  afterEach(async () => {
    vi.useRealTimers();
    await t?.close();
    t = undefined;
  });

  const ask = async (asker: Asker, text: string, key = 'slack:T:C1') => {
    const events: AgentEvent[] = [];
    const outcome: AskOutcome = await t!.core.assistant.ask({ key, author: asker.userId, text, asker }, (e) =>
      events.push(e),
    );
    return { outcome, events };
  };

  it('refuses a daily token budget once spent, until local midnight in DEFAULT_TIMEZONE', async () => {
    t = await startTestCore({
      TOKEN_BUDGET_USER_DAY: '100',
      RATE_LIMIT_USER: 'off',
      DEFAULT_TIMEZONE: 'Asia/Tokyo',
    });
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-12-01T14:50:00Z')); // 23:50 in Tokyo
    t.fake.script(
      { content: 'Spent.', usage: { prompt_tokens: 80, completion_tokens: 40 } },
      { content: 'A new day.' },
    );
    expect((await ask(alice, 'first')).outcome.status).toBe('answered');

    const refused = await ask(alice, 'second');
    expect(refused.outcome).toEqual({
      status: 'limited',
      message: 'Your token budget for today is spent; it resets at Wed 2 Dec, 00:00.',
    });
    expect((await ask(bob, 'another person')).outcome.status).toBe('answered'); // a per-user budget
    expect(t.fake.requests).toHaveLength(2);

    vi.setSystemTime(new Date('2026-12-01T15:05:00Z')); // 00:05 the next day in Tokyo
    t.fake.script({ content: 'Fresh budget.' });
    expect((await ask(alice, 'third')).outcome.status).toBe('answered');
    expect(t.fake.requests).toHaveLength(3);
  });

  it('refuses only the questions not yet started when a limit is reached while they wait', async () => {
    t = await startTestCore({ RATE_LIMIT_CHANNEL: '2/hour' });
    const gate = createGate();
    t.fake.script({ content: 'One.', until: gate.promise }, { content: 'Two.' }, { content: 'Never.' });
    const asks = [ask(alice, 'q1'), ask(bob, 'q2'), ask(alice, 'q3')];
    await t.fake.waitForRequests(1);
    gate.open();
    const outcomes = (await Promise.all(asks)).map((a) => a.outcome.status);
    expect(outcomes).toEqual(['answered', 'answered', 'limited']);
    expect(t.fake.requests).toHaveLength(2);
    const limited = (await asks[2]!).events.find((e) => e.type === 'error');
    expect(limited).toMatchObject({
      code: 'limited',
      message: expect.stringMatching(/This channel has reached its limit of 2 questions per hour/),
    });
  });

  it('never limits admins', async () => {
    t = await startTestCore({ RATE_LIMIT_USER: '1/hour', ADMIN_USERS: 'UALICE' });
    t.fake.script({ content: 'a' }, { content: 'b' }, { content: 'c' });
    for (const text of ['one', 'two', 'three'])
      expect((await ask(alice, text)).outcome.status).toBe('answered');
  });

  it('records what each run spent, and bills memory summaries to their channel', async () => {
    t = await startTestCore(
      { MEMORY_MAX_TOKENS: '60', MEMORY_KEEP_TURNS: '1' },
      { fallback: () => ({ content: 'A summary.', usage: { prompt_tokens: 50, completion_tokens: 5 } }) },
    );
    t.fake.script(
      {
        content: 'First answer, long enough to fill the memory budget quickly.',
        usage: { prompt_tokens: 100, completion_tokens: 20 },
      },
      {
        content: 'Second answer, also long enough to push the first one out.',
        usage: { prompt_tokens: 100, completion_tokens: 20 },
      },
    );
    await ask(alice, 'a question that takes some room in memory');
    await ask(alice, 'another question that takes some room in memory');
    await t.core.close(); // waits for the compression the second turn set off
    const report = await t.core.assistant.usage({ ...alice, platformAdmin: true }, 'slack:T:C1');
    expect(report.you.today).toMatchObject({ questions: 2, promptTokens: 200, completionTokens: 40 });
    expect(report.channel.today.questions).toBe(2);
    expect(report.channel.today.promptTokens).toBeGreaterThanOrEqual(250); // the summary's 50 on top
    expect(report.top?.users.map((u) => u.group)).toEqual(['slack:T1:UALICE']);
  });
});
