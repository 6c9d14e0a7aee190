import { describe, expect, it } from 'vitest';
import { webChatLine } from '../../../src/platforms/web/web-chat-line.js';

describe('the web chat’s start line', () => {
  it('says where it listens: on every interface when bound to 0.0.0.0 or ::, else its own address', () => {
    expect(webChatLine('0.0.0.0', 3000)).toBe(
      'thinkthread: web chat on every interface (0.0.0.0:3000); from this machine at http://127.0.0.1:3000/',
    );
    expect(webChatLine('::', 3000)).toBe(
      'thinkthread: web chat on every interface ([::]:3000); from this machine at http://127.0.0.1:3000/',
    );
    expect(webChatLine('127.0.0.1', 3000)).toBe('thinkthread: web chat at http://127.0.0.1:3000/');
    expect(webChatLine('::1', 8080)).toBe('thinkthread: web chat at http://[::1]:8080/');
    expect(webChatLine('0.0.0.0', 0)).toBe('thinkthread: web chat on the port the log names');
  });
});
