import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../src/core/agent/events.js';
import { StorageError } from '../../../src/core/errors.js';
import type { Store } from '../../../src/core/ports/store.js';
import { NOT_REMEMBERED_MESSAGE } from '../../../src/core/runs/run-replies.js';
import { startTestCore, type TestCore } from '../../helpers/test-core.js';

describe('a turn that cannot be stored', () => {
  let t: TestCore | undefined;
  afterEach(async () => {
    await t?.close();
  });

  it('is answered with a note that it was not remembered, reported by health, and the bot recovers by itself', async () => {
    let diskFull = true;
    const failingWrites = (store: Store): Store =>
      new Proxy(store, {
        get(target, name, receiver) {
          if (name === 'appendTurn' && diskFull) {
            return async () => {
              throw new StorageError('Could not append a turn: database or disk is full');
            };
          }
          const value = Reflect.get(target, name, receiver);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
    t = await startTestCore({}, {}, { wrapStore: failingWrites });
    t.fake.script({ content: 'Answered anyway.' }, { content: 'Remembered now.' });
    const events: AgentEvent[] = [];
    const first = await t.core.assistant.ask({ key: 'k', author: 'a', text: 'remember 42' }, (e) =>
      events.push(e),
    );
    expect(first).toMatchObject({ status: 'answered', text: 'Answered anyway.' });
    expect(events.at(-1)).toEqual({
      type: 'notice',
      code: 'not_remembered',
      message: NOT_REMEMBERED_MESSAGE,
    });
    expect(t.core.assistant.health()).toBe('memory writes are failing');
    expect((await t.core.assistant.memory('k')).turns).toBe(0);

    diskFull = false;
    await t.core.assistant.ask({ key: 'k', author: 'a', text: 'and now?' }, () => {});
    expect(t.core.assistant.health()).toBeUndefined();
    expect((await t.core.assistant.memory('k')).turns).toBe(1);
  });
});
