import { describe, expect, it } from 'vitest';
import { type AccessPolicy, decideAccess } from '../../../src/core/governance/access-policy.js';
import { createTokenGate } from '../../../src/platforms/web/access-token.js';
import { signedInAsker, webAsker } from '../../../src/platforms/web/asker.js';
import { isLoopback } from '../../../src/platforms/web/loopback.js';
import { testConfig } from '../../helpers/config.js';
import { TOKEN } from './web-harness.js';

const closed: AccessPolicy = {
  ALLOW_USERS: ['U0SOMEONE'],
  BLOCK_USERS: [],
  ALLOW_CHANNELS: ['C0SOMEWHERE'],
  BLOCK_CHANNELS: [],
  ALLOW_ROLES: ['R0SOMEROLE'],
  ALLOW_DMS: false,
  ADMIN_USERS: [],
};

describe('who may use the web chat', () => {
  it('lets a browser past every allow list: the token is the web chat’s access control', async () => {
    expect(await decideAccess(closed, webAsker('browser-1'))).toEqual({ allowed: true });
  });

  it('still refuses a browser named in BLOCK_USERS (as web:<id>; a bare ID names Slack or Discord people only)', async () => {
    const decision = await decideAccess({ ...closed, BLOCK_USERS: ['web:browser-1'] }, webAsker('browser-1'));
    expect(decision).toEqual({ allowed: false, rule: 'BLOCK_USERS' });
    expect(await decideAccess({ ...closed, BLOCK_USERS: ['browser-1'] }, webAsker('browser-1'))).toEqual({
      allowed: true,
    });
  });

  it('counts a token browser’s client address too, so a fresh cookie is not a fresh allowance', () => {
    expect(webAsker('browser-1', '203.0.113.7')).toMatchObject({
      principal: 'web:browser-1',
      origin: 'addr:203.0.113.7',
    });
    expect(webAsker('browser-1').origin).toBeUndefined();
  });

  it('makes a signed-in user the Slack or Discord principal, under the allow lists like anyone there', async () => {
    const asker = signedInAsker({
      principal: 'slack:T0TEAM:U0SOMEONE',
      userId: 'U0SOMEONE',
      name: 'Someone',
    });
    expect(asker).toMatchObject({ platform: 'web', principal: 'slack:T0TEAM:U0SOMEONE', dm: true });
    expect(asker.platformGated).toBeUndefined();
    expect(await decideAccess({ ...closed, ALLOW_DMS: true }, asker)).toEqual({ allowed: true });
    expect(await decideAccess({ ...closed, ALLOW_USERS: ['U0NOBODY'] }, asker)).toMatchObject({
      allowed: false,
    });
  });

  it('keeps the allow lists for every other asker', async () => {
    const dm = { platform: 'slack', userId: 'U0OTHER', principal: 'slack:T1:U0OTHER', dm: true };
    expect(await decideAccess(closed, dm)).toEqual({ allowed: false, rule: 'ALLOW_DMS' });
  });
});

describe('the web chat token', () => {
  const gate = createTokenGate('correct horse battery staple');

  it('earns a cookie only for the right token, and the cookie does not contain it', () => {
    expect(gate.check('wrong')).toBeUndefined();
    expect(gate.check('correct horse battery stapl')).toBeUndefined();
    const proof = gate.check('correct horse battery staple');
    expect(proof).toBeTruthy();
    expect(proof).not.toContain('horse');
    expect(gate.admits(proof)).toBe(true);
    expect(gate.admits(`${proof}x`)).toBe(false);
    expect(gate.admits(undefined)).toBe(false);
  });

  it('is not asked for when no token is set', () => {
    const open = createTokenGate(undefined);
    expect(open.required).toBe(false);
    expect(open.admits(undefined)).toBe(true);
  });
});

describe('binding the web chat', () => {
  it('knows the loopback addresses', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]'])
      expect(isLoopback(host)).toBe(true);
    for (const host of ['0.0.0.0', '::', '192.168.1.5', 'example.com', '10.0.0.1'])
      expect(isLoopback(host)).toBe(false);
  });

  it('refuses to start beyond loopback without a token, saying what to set', () => {
    expect(() => testConfig({ WEB_CHAT: 'true', WEB_HOST: '0.0.0.0' })).toThrow(
      /WEB_AUTH: .*WEB_HOST=0\.0\.0\.0/,
    );
    expect(() =>
      testConfig({ WEB_CHAT: 'true', WEB_HOST: '0.0.0.0', WEB_CHAT_TOKEN: 'short-token' }),
    ).toThrow(/WEB_CHAT_TOKEN: must be at least 24 characters/);
    expect(testConfig({ WEB_CHAT: 'true', WEB_HOST: '0.0.0.0', WEB_CHAT_TOKEN: TOKEN }).WEB_HOST).toBe(
      '0.0.0.0',
    );
    expect(testConfig({ WEB_CHAT: 'true' }).WEB_HOST).toBe('127.0.0.1');
    // Without the web chat, WEB_HOST binds nothing.
    expect(testConfig({ WEB_HOST: '0.0.0.0' }).WEB_CHAT).toBe(false);
  });

  it('keeps the token out of error messages', () => {
    expect(() => testConfig({ WEB_CHAT: 'maybe', WEB_CHAT_TOKEN: 'sekrit-token' })).toThrow(/WEB_CHAT/);
    try {
      testConfig({ WEB_CHAT: 'maybe', WEB_CHAT_TOKEN: 'sekrit-token' });
    } catch (err) {
      expect(String(err)).not.toContain('sekrit-token');
    }
  });
});
