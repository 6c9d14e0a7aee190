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
});
