import { describe, expect, it } from 'vitest';
import { escapeControls, jsonEscapeControls, removeControls } from '../../../src/core/util/control-text.js';

const CLIPBOARD = '\x1b]52;c;c2VjcmV0\x07';

describe('escapeControls', () => {
  it('shows C0, DEL and C1 controls, separators and bidi overrides as visible escapes', () => {
    expect(escapeControls(`a${CLIPBOARD}b\x9d52;c;x\x9cc\x9b2Jd\rover\x7f\u2028\u202e\u2066\x00`)).toBe(
      'a\\x1b]52;c;c2VjcmV0\\x07b\\x9d52;c;x\\x9cc\\x9b2Jd\\rover\\x7f\\u2028\\u202e\\u2066\\x00',
    );
  });

  it('keeps the characters a layout needs, and text that is not a control as it is', () => {
    expect(escapeControls('one\n\ttwo\r\n', '\n\t')).toBe('one\n\ttwo\\r\n');
    expect(escapeControls('café – 東京 \u05e9\u05dc\u05d5\u05dd C:\\x1b')).toBe('café – 東京 שלום C:\\x1b');
  });

  it('changes nothing in text it already escaped', () => {
    const once = escapeControls(`x${CLIPBOARD}\u202e`);
    expect(escapeControls(once)).toBe(once);
  });
});

describe('removeControls', () => {
  it('drops every control but the kept ones', () => {
    expect(removeControls('a\x1b[31mb\x07\nc\td\x9b\u202e', '\n\t')).toBe('a[31mb\nc\td');
  });
});

describe('jsonEscapeControls', () => {
  it('writes the raw controls a serializer leaves as JSON escapes: the same value once parsed', () => {
    const value = { said: 'a\x9d52;c;x\x9c b\x7f c\u2028 d\u202e' };
    const line = `${JSON.stringify(value)}\n`;
    const safe = jsonEscapeControls(line);
    expect(safe).toBe('{"said":"a\\u009d52;c;x\\u009c b\\u007f c\\u2028 d\\u202e"}\n');
    expect(JSON.parse(safe)).toEqual(value);
  });
});
