import { describe, expect, it } from 'vitest';
import { isAcknowledgement } from '../../../src/platforms/shared/acknowledgement.js';

describe('a thanks or ok in a followed thread', () => {
  it.each(['thanks', 'Thanks!!', 'ok, thanks.', 'Got it 👍', '👍', '👍🏽👍', '❤️', ':+1:', '谢谢！', '🙏 🙌'])(
    '“%s” gets a reaction',
    (text) => {
      expect(isAcknowledgement(text)).toBe(true);
    },
  );

  it.each([
    'and for last quarter?',
    'thanks, and what about Q3?',
    'ok so what about the other one',
    'no',
    '',
    'thanks '.repeat(10),
  ])('“%s” is not only a thanks', (text) => {
    expect(isAcknowledgement(text)).toBe(false);
  });
});
