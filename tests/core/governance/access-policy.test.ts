import { describe, expect, it } from 'vitest';
import { type AccessPolicy, decideAccess } from '../../../src/core/governance/access-policy.js';
import type { Asker } from '../../../src/core/governance/asker.js';

const open: AccessPolicy = {
  ALLOW_USERS: [],
  BLOCK_USERS: [],
  ALLOW_CHANNELS: [],
  BLOCK_CHANNELS: [],
  ALLOW_ROLES: [],
  ALLOW_DMS: true,
  ADMIN_USERS: [],
};
const alice: Asker = {
  platform: 'discord',
  userId: 'A1',
  principal: 'discord:A1',
  channelId: 'C1',
  dm: false,
  roles: ['R1'],
};
const allowed = async (policy: Partial<AccessPolicy>, asker: Asker = alice) =>
  (await decideAccess({ ...open, ...policy }, asker)).allowed;

describe('access lists', () => {
  it('let everyone in when no list is set', async () => {
    expect(await allowed({})).toBe(true);
  });

  it('let in those on ALLOW_USERS or with a role on ALLOW_ROLES, either one sufficing', async () => {
    expect(await allowed({ ALLOW_USERS: ['B2'] })).toBe(false);
    expect(await allowed({ ALLOW_USERS: ['A1'] })).toBe(true);
    expect(await allowed({ ALLOW_ROLES: ['R9'] })).toBe(false);
    expect(await allowed({ ALLOW_ROLES: ['R1'] })).toBe(true);
    expect(await allowed({ ALLOW_USERS: ['B2'], ALLOW_ROLES: ['R1'] })).toBe(true);
  });

  it('let a block win over every allow, admins included', async () => {
    expect(await allowed({ ALLOW_USERS: ['A1'], BLOCK_USERS: ['A1'] })).toBe(false);
    expect(await allowed({ ADMIN_USERS: ['A1'], BLOCK_USERS: ['A1'] })).toBe(false);
    expect(await allowed({ ALLOW_CHANNELS: ['C1'], BLOCK_CHANNELS: ['C1'] })).toBe(false);
  });

  it('answer only in ALLOW_CHANNELS, where a thread counts as its parent (the asker names the parent)', async () => {
    expect(await allowed({ ALLOW_CHANNELS: ['C2'] })).toBe(false);
    expect(await allowed({ ALLOW_CHANNELS: ['C1'] })).toBe(true);
  });

  it('govern a DM by ALLOW_DMS alone, whatever ALLOW_CHANNELS says', async () => {
    const dm: Asker = { platform: 'slack', userId: 'U1', principal: 'slack:T1:U1', dm: true };
    expect(await allowed({ ALLOW_CHANNELS: ['C1'] }, dm)).toBe(true);
    expect(await allowed({ ALLOW_DMS: false }, dm)).toBe(false);
  });

  it('let admins past the user lists and ALLOW_DMS, by ADMIN_USERS or by the platform’s say', async () => {
    expect(await allowed({ ALLOW_USERS: ['B2'], ADMIN_USERS: ['A1'] })).toBe(true);
    expect(await allowed({ ALLOW_USERS: ['B2'] }, { ...alice, platformAdmin: Promise.resolve(true) })).toBe(
      true,
    );
    const dm: Asker = {
      platform: 'slack',
      userId: 'U1',
      principal: 'slack:T1:U1',
      dm: true,
      platformAdmin: true,
    };
    expect(await allowed({ ALLOW_DMS: false }, dm)).toBe(true);
  });

  it('grant nothing when the admin lookup fails, and look it up only when a rule needs it', async () => {
    let lookups = 0;
    const failing: Asker = {
      ...alice,
      get platformAdmin() {
        lookups++;
        return Promise.reject(new Error('users.info failed'));
      },
    };
    expect(await allowed({}, failing)).toBe(true);
    expect(lookups).toBe(0);
    expect(await allowed({ ALLOW_USERS: ['B2'] }, failing)).toBe(false);
    expect(lookups).toBe(1);
  });
});
