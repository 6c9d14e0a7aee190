import { describe, expect, it } from 'vitest';
import { createRedactor } from '../../src/core/logger.js';

describe('secret redaction', () => {
  it('replaces every occurrence of every secret', () => {
    const redact = createRedactor(['sk-live-123456', 'xoxb-999999', undefined]);
    expect(redact('key sk-live-123456 and xoxb-999999 and sk-live-123456')).toBe(
      'key [redacted] and [redacted] and [redacted]',
    );
  });

  it('treats secrets as literal text, not patterns', () => {
    const redact = createRedactor(['a.b*c+d(e)']);
    expect(redact('x a.b*c+d(e) y aXbbbc+d(e)')).toBe('x [redacted] y aXbbbc+d(e)');
  });

  it('leaves text alone when there are no secrets', () => {
    expect(createRedactor([undefined])('nothing to hide')).toBe('nothing to hide');
  });

  it('replaces the secret part of what a pattern matches, keeping its first group', () => {
    const redact = createRedactor([], [/(\/hooks\/\d+\/)\w{8,}/]);
    expect(redact('POST /hooks/42/abcdefghij/x failed; /hooks/43/abcdefghijkl again')).toBe(
      'POST /hooks/42/[redacted]/x failed; /hooks/43/[redacted] again',
    );
    expect(redact('/hooks/44/short stays')).toBe('/hooks/44/short stays');
  });
});
