import { afterEach, describe, expect, it } from 'vitest';
import { startTestCore, type TestCore } from '../helpers/test-core.js';

describe('a degenerate megabyte answer', { timeout: 120_000 }, () => {
  let t: TestCore | undefined;
  afterEach(async () => {
    await t?.close();
  });

  it('is cut and remembered, while another channel is answered, and the same channel goes on', async () => {
    // A model repeating itself to its length limit: one megabyte without a space, streamed in 4 KB pieces.
    t = await startTestCore({}, { chunkSize: 4096 });
    const huge = 'a'.repeat(1_000_000);
    t.fake.script({ content: huge });
    const ask = (key: string, text: string) =>
      t!.core.assistant.ask({ key, author: 'someone', text }, () => {});
    const degenerate = ask('a', 'repeat yourself');
    await t.fake.waitForRequests(1);
    t.fake.script({ content: 'Other channel, fine.' }, { content: 'Same channel, fine.' });
    const other = await ask('b', 'hello from elsewhere');
    expect(other).toMatchObject({ status: 'answered', text: 'Other channel, fine.' });

    const cut = await degenerate;
    expect(cut).toMatchObject({ status: 'answered', truncated: 'max_chars' });
    expect(cut.status === 'answered' && cut.text.length).toBe(t.config.ANSWER_MAX_CHARS);
    const next = await ask('a', 'and now?');
    expect(next).toMatchObject({ status: 'answered', text: 'Same channel, fine.' });
    // Memory holds both turns of channel a, the first cut to the limit with its note.
    expect((await t.core.assistant.memory('a')).turns).toBe(2);
    const lastRequest = JSON.stringify(t.fake.requests.at(-1)!.body.messages);
    expect(lastRequest).toContain('repeat yourself');
    expect(lastRequest.length).toBeLessThan(200_000);
  });
});
