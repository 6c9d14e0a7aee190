import { describe, expect, it } from 'vitest';
import { createLogger, createRedactor } from '../../src/core/logger.js';

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

describe('log lines', () => {
  it('carry no raw control character, whatever a value holds, and parse to the same value', () => {
    const lines: string[] = [];
    const logger = createLogger({ level: 'info', secrets: [], write: (line) => void lines.push(line) });
    const said = 'osc \x9d52;c;c2VjcmV0\x9c csi \x9b2J esc \x1b]52;c;x\x07 cr \r sep \u2028 bidi \u202e';
    logger.warn({ said }, 'a server said \x9b2J');
    expect(lines).toHaveLength(1);
    expect(lines[0]!.slice(0, -1)).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e]/);
    expect(JSON.parse(lines[0]!)).toMatchObject({ said, msg: 'a server said \x9b2J' });
  });
});
