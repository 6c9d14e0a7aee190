import { afterEach, describe, expect, it } from 'vitest';
import { createGate } from '../../helpers/gate.js';
import { startTestCore, type TestCore } from '../../helpers/test-core.js';

describe('reset while a question is being answered', () => {
  let t: TestCore;
  afterEach(() => t.close());

  it('delivers that answer but does not write it back into the memory just forgotten', async () => {
    t = await startTestCore();
    const reply = createGate();
    t.fake.script(
      { content: 'Noted: the secret word is swordfish.', until: reply.promise },
      { content: 'Fresh.' },
    );
    const { assistant } = t.core;
    const pending = assistant.ask(
      { key: 'c', author: 'alice', text: 'the secret word is swordfish' },
      () => {},
    );
    await t.fake.waitForRequests(1);
    await assistant.reset('c');
    reply.open();
    expect(await pending).toMatchObject({ status: 'answered', text: 'Noted: the secret word is swordfish.' });
    expect((await assistant.memory('c')).turns).toBe(0);
    await assistant.ask({ key: 'c', author: 'alice', text: 'what was the word?' }, () => {});
    expect(JSON.stringify(t.fake.requests[1]!.body.messages)).not.toContain('swordfish');
  });

  it('awaits a pending author name in the channel’s turn, keeping arrival order', async () => {
    t = await startTestCore();
    t.fake.script({ content: 'one' }, { content: 'two' });
    const { assistant } = t.core;
    const slowName = new Promise<string>((resolve) => setTimeout(() => resolve('Slow Sam'), 100));
    const first = assistant.ask({ key: 'c', author: slowName, text: 'first question' }, () => {});
    const second = assistant.ask({ key: 'c', author: 'quick', text: 'second question' }, () => {});
    await Promise.all([first, second]);
    const lastUser = (i: number) => t.fake.requests[i]!.body.messages.at(-1)!.content;
    expect(lastUser(0)).toBe('[Slow Sam] first question');
    expect(lastUser(1)).toBe('[quick] second question');
  });
});
