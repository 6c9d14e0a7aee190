import { afterEach, describe, expect, it } from 'vitest';
import type { Asker } from '../../../src/core/governance/asker.js';
import { startTestCore, type TestCore } from '../../helpers/test-core.js';

const ALICE: Asker = {
  platform: 'slack',
  userId: 'U0ALICE01',
  principal: 'slack:T0ACME01:U0ALICE01',
  dm: false,
};
const HERE = 'slack:T0ACME01:C0HERE';
const THERE = 'slack:T0ACME01:C0THERE';

describe('forget-me and the run logs', () => {
  let test: TestCore | undefined;
  afterEach(async () => {
    await test?.close();
    test = undefined;
  });

  /** The conversations of the runs whose steps are still kept. */
  const kept = async () =>
    (await test!.store.listRuns({ since: 0, until: Date.now() + 1, limit: 10, search: 'secret' })).map(
      (r) => r.key,
    );

  it('drops a person’s run logs in the channel, and with --everywhere in every channel', async () => {
    test = await startTestCore({}, { fallback: () => ({ content: 'Noted.' }) });
    for (const key of [HERE, THERE])
      await test.core.assistant.ask({ key, author: 'Alice', text: 'my secret plan', asker: ALICE }, () => {});
    expect((await kept()).sort()).toEqual([HERE, THERE].sort());
    await test.core.assistant.memoryCommand(ALICE, HERE, 'forget-me');
    expect(await kept()).toEqual([THERE]);
    await test.core.assistant.memoryCommand(ALICE, HERE, 'forget-me --everywhere');
    expect(await kept()).toEqual([]);
  });
});
