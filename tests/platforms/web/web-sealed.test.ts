import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createBackoff } from '../../../src/platforms/web/backoff.js';
import { addressKey, clientAddress } from '../../../src/platforms/web/client-address.js';
import { BROWSER_COOKIE, CHAT_COOKIE, createIdentities } from '../../../src/platforms/web/identity.js';
import { createSealer } from '../../../src/platforms/web/sealed.js';

const SECRET = 'a-session-secret-of-at-least-32-characters';

describe('sealed cookie values', () => {
  it('open only as sealed: same key and purpose, unaltered, unexpired', () => {
    let clock = 1_700_000_000_000;
    const sealer = createSealer(SECRET, () => clock);
    const value = sealer.seal('tt_session', { p: 'slack:T1:U1' }, 60);
    expect(value).not.toContain('slack');
    expect(sealer.open('tt_session', value)).toMatchObject({ p: 'slack:T1:U1' });
    expect(createSealer(SECRET, () => clock).open('tt_session', value)).toMatchObject({ p: 'slack:T1:U1' });
    expect(createSealer(`${SECRET}!`, () => clock).open('tt_session', value)).toBeUndefined();
    expect(sealer.open('tt_browser', value)).toBeUndefined();
    const flipped = `${value.slice(0, 30)}${value[30] === 'A' ? 'B' : 'A'}${value.slice(31)}`;
    expect(sealer.open('tt_session', flipped)).toBeUndefined();
    for (const junk of [undefined, '', 'U0ADMIN01', 'not base64!', 'x'.repeat(5000)]) {
      expect(sealer.open('tt_session', junk)).toBeUndefined();
    }
    clock += 61_000;
    expect(sealer.open('tt_session', value)).toBeUndefined();
  });

  it('use a random key per process without WEB_SESSION_SECRET', () => {
    const value = createSealer(undefined).seal('tt_browser', { b: 'x' }, 60);
    expect(createSealer(undefined).open('tt_browser', value)).toBeUndefined();
  });
});

describe('browser and chat IDs', () => {
  const identities = createIdentities(createSealer(SECRET), {});

  it('replaces a chosen browser ID and keeps one the server issued', () => {
    const chosen = identities.browser(new Map([[BROWSER_COOKIE, 'U0ADMIN01']]));
    expect(chosen.id).not.toBe('U0ADMIN01');
    const value = /^tt_browser=([^;]+)/.exec(chosen.setCookie!)![1]!;
    expect(identities.browser(new Map([[BROWSER_COOKIE, value]]))).toEqual({ id: chosen.id });
  });

  it('binds a chat to its owner: another principal holding the cookie gets a new chat', () => {
    const issued = identities.newChat('slack:T1:U1');
    const value = /^tt_chat=([^;]+)/.exec(issued)![1]!;
    const cookies = new Map([[CHAT_COOKIE, value]]);
    const mine = identities.chat(cookies, 'slack:T1:U1');
    expect(mine.setCookie).toBeUndefined();
    const theirs = identities.chat(cookies, 'slack:T1:U2');
    expect(theirs.id).not.toBe(mine.id);
    expect(theirs.setCookie).toBeDefined();
  });
});

describe('client addresses', () => {
  const req = (remoteAddress: string, forwarded?: string) =>
    ({
      socket: { remoteAddress },
      headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded },
    }) as unknown as IncomingMessage;

  it('are the socket’s peer unless WEB_TRUST_PROXY, then the last X-Forwarded-For hop', () => {
    expect(clientAddress(req('10.0.0.2', '203.0.113.7'), false)).toBe('10.0.0.2');
    expect(clientAddress(req('10.0.0.2', '198.51.100.1, 203.0.113.7'), true)).toBe('203.0.113.7');
    expect(clientAddress(req('10.0.0.2', 'garbage'), true)).toBe('10.0.0.2');
    expect(clientAddress(req('::ffff:127.0.0.1'), false)).toBe('127.0.0.1');
  });

  it('count an IPv6 client by its /64', () => {
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:2:bbbb:cccc:dddd:eeee')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
  });
});

describe('the token backoff', () => {
  it('forgets a key quiet for the longest wait, and holds at most maxKeys', () => {
    let clock = 0;
    const backoff = createBackoff({ free: 0, baseMs: 1000, maxMs: 10_000, maxKeys: 2, now: () => clock });
    backoff.fail('a');
    expect(backoff.wait('a')).toBe(1000);
    backoff.fail('a');
    expect(backoff.wait('a')).toBe(2000);
    clock += 2000 + 10_001;
    backoff.fail('a');
    expect(backoff.wait('a')).toBe(1000);
    backoff.fail('b');
    backoff.fail('c');
    expect(backoff.wait('a')).toBe(0);
    expect(backoff.wait('c')).toBe(1000);
  });
});
