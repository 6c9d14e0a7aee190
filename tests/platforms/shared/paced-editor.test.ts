import { describe, expect, it } from 'vitest';
import { createPacedEditor } from '../../../src/platforms/shared/create-paced-editor.js';
import { waitUntil } from '../../helpers/wait-until.js';

describe('createPacedEditor', () => {
  it('coalesces a burst of updates, never overlaps sends, and delivers the final text', async () => {
    const sent: string[] = [];
    let active = 0;
    let overlapped = false;
    const editor = createPacedEditor(async (text) => {
      active++;
      if (active > 1) overlapped = true;
      await new Promise((r) => setTimeout(r, 5));
      sent.push(text);
      active--;
    }, 30);
    let text = '';
    for (let i = 0; i < 200; i++) {
      text += `w${i} `;
      editor.set(text);
      if (i % 20 === 0) await new Promise((r) => setTimeout(r, 10));
    }
    await editor.finish(`${text}END`);
    expect(overlapped).toBe(false);
    expect(sent.length).toBeLessThan(40);
    expect(sent.at(-1)).toBe(`${text}END`);
    expect(new Set(sent).size).toBe(sent.length);
  });

  it('after the post that creates the message, sends the first edit at once and paces the rest', async () => {
    for (const firstSendPosts of [true, false]) {
      const sent: string[] = [];
      const editor = createPacedEditor(
        async (text) => {
          sent.push(text);
        },
        50,
        () => {},
        { firstSendPosts },
      );
      editor.set('placeholder');
      await waitUntil(() => sent.length === 1, { what: 'the post' });
      await new Promise((resolve) => setImmediate(resolve)); // the post's completion settles
      editor.set('first words');
      // Sent in the same tick, or held for the interval.
      expect(sent).toEqual(firstSendPosts ? ['placeholder', 'first words'] : ['placeholder']);
      editor.set('more words');
      expect(sent.at(-1)).not.toBe('more words');
      await editor.finish();
      expect(sent.at(-1)).toBe('more words');
    }
  });

  it('keeps going after a failed intermediate edit and still delivers the final text', async () => {
    const sent: string[] = [];
    const errors: unknown[] = [];
    let calls = 0;
    const editor = createPacedEditor(
      async (text) => {
        if (calls++ === 0) throw new Error('429');
        sent.push(text);
      },
      0,
      (err) => errors.push(err),
    );
    editor.set('a');
    await waitUntil(() => errors.length === 1, { what: 'the first edit to fail' });
    editor.set('ab');
    await editor.finish('abc');
    expect(errors).toHaveLength(1);
    expect(sent.at(-1)).toBe('abc');
  });

  it('rejects when the final send fails, so the caller can report it', async () => {
    const editor = createPacedEditor(async () => {
      throw new Error('gone');
    }, 0);
    await expect(editor.finish('x')).rejects.toThrow('gone');
  });
});

describe('createPacedEditor finish() without text', () => {
  it('ends on the newest text even when it was in flight, and never re-sends an older one', async () => {
    const sent: string[] = [];
    let release: () => void = () => {};
    let held = false;
    const editor = createPacedEditor(async (text) => {
      if (text === 'second') {
        held = true;
        await new Promise<void>((r) => (release = r));
      }
      sent.push(text);
    }, 0);
    editor.set('first');
    await waitUntil(() => sent.includes('first'), { what: 'the first edit' });
    editor.set('second'); // in flight, held until released
    await waitUntil(() => held, { what: 'the second edit to be in flight' });
    const done = editor.finish();
    release();
    await done;
    expect(sent).toEqual(['first', 'second']);
  });
});
