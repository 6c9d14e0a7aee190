import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config.js';
import { decideAccess } from '../../../src/core/governance/access-policy.js';
import type { Asker } from '../../../src/core/governance/asker.js';
import {
  bareEntries,
  discordPrincipal,
  entryNames,
  slackPrincipal,
  webPrincipal,
} from '../../../src/core/governance/principal.js';
import { startTestCore, type TestCore } from '../../helpers/test-core.js';

const slackAdmin: Asker = {
  platform: 'slack',
  userId: 'U0ADMIN01',
  principal: slackPrincipal('U0ADMIN01', 'T0TEAM'),
  channelId: 'C1',
  dm: false,
};
const slackVictim: Asker = {
  platform: 'slack',
  userId: 'U0VICTIM1',
  principal: slackPrincipal('U0VICTIM1', 'T0TEAM'),
  channelId: 'C1',
  dm: false,
};
/** A browser whose cookie claims a Slack person's ID: what the web chat made of it before principals. */
const browserCalling = (id: string, origin?: string): Asker => ({
  platform: 'web',
  userId: id,
  principal: webPrincipal(id),
  origin,
  dm: true,
  platformGated: true,
});

describe('principals: a person is bound to the surface that proved them', () => {
  it('match configured entries by platform: prefixed exactly, bare IDs only on Slack and Discord', () => {
    expect(entryNames('slack:U1', slackPrincipal('U1', 'T1'))).toBe(true);
    expect(entryNames('slack:T1:U1', slackPrincipal('U1', 'T1'))).toBe(true);
    expect(entryNames('slack:T2:U1', slackPrincipal('U1', 'T1'))).toBe(false);
    expect(entryNames('U1', slackPrincipal('U1', 'T1'))).toBe(true);
    expect(entryNames('1234', discordPrincipal('1234'))).toBe(true);
    expect(entryNames('discord:1234', discordPrincipal('1234'))).toBe(true);
    expect(entryNames('slack:1234', discordPrincipal('1234'))).toBe(false);
    expect(entryNames('U1', webPrincipal('U1'))).toBe(false);
    expect(entryNames('slack:U1', webPrincipal('U1'))).toBe(false);
    expect(entryNames('web:U1', webPrincipal('U1'))).toBe(true);
    expect(entryNames('discord:1', discordPrincipal('12'))).toBe(false);
  });

  describe('through the real core', () => {
    let t: TestCore | undefined;
    afterEach(async () => {
      await t?.close();
      t = undefined;
    });
    const ask = (asker: Asker, text: string, key: string) =>
      t!.core.assistant.ask({ key, author: asker.userId, text, asker }, () => undefined);

    it('never takes a browser calling itself a Slack admin for that admin', async () => {
      t = await startTestCore({ ADMIN_USERS: 'U0ADMIN01', RATE_LIMIT_USER: '1/hour' });
      t.fake.script({ content: 'one' }, { content: 'two' }, { content: 'admin' }, { content: 'admin 2' });
      const spoof = browserCalling('U0ADMIN01');
      expect((await ask(spoof, 'first', 'web:c1')).status).toBe('answered');
      expect((await ask(spoof, 'second', 'web:c1')).status).toBe('limited');
      const settings = await t.core.assistant.settings(spoof, 'web:c1', {
        action: 'set',
        name: 'prompt',
        value: 'be evil',
      });
      expect(settings.status).toBe('refused');
      expect((await t.core.assistant.usage(spoof, 'web:c1')).top).toBeUndefined();
      // The real admin, proven by Slack, is still an admin: never limited, sees the top lists.
      expect((await ask(slackAdmin, 'a', 'slack:T0TEAM:C1')).status).toBe('answered');
      expect((await ask(slackAdmin, 'b', 'slack:T0TEAM:C1')).status).toBe('answered');
      expect((await t.core.assistant.usage(slackAdmin, 'slack:T0TEAM:C1')).top).toBeDefined();
    });

    it('keeps limits apart across surfaces: a browser named like a Slack user spends nothing of theirs', async () => {
      t = await startTestCore({ RATE_LIMIT_USER: '1/hour' });
      t.fake.script({ content: 'web' }, { content: 'slack' });
      expect((await ask(browserCalling('U0VICTIM1'), 'drain', 'web:c2')).status).toBe('answered');
      expect((await ask(slackVictim, 'mine', 'slack:T0TEAM:C1')).status).toBe('answered');
      const report = await t.core.assistant.usage(slackVictim, 'slack:T0TEAM:C1');
      expect(report.you.today.questions).toBe(1);
    });

    it('counts a web origin too, so a fresh browser ID from the same address stays limited', async () => {
      t = await startTestCore({ RATE_LIMIT_USER: '1/hour' });
      t.fake.script({ content: 'one' }, { content: 'elsewhere' });
      expect((await ask(browserCalling('browserA', 'addr:203.0.113.7'), 'q', 'web:a')).status).toBe(
        'answered',
      );
      expect((await ask(browserCalling('browserB', 'addr:203.0.113.7'), 'q', 'web:b')).status).toBe(
        'limited',
      );
      expect((await ask(browserCalling('browserC', 'addr:198.51.100.2'), 'q', 'web:c')).status).toBe(
        'answered',
      );
    });

    it('lets BLOCK_USERS name a browser, and a bare ID never blocks one', async () => {
      t = await startTestCore({ BLOCK_USERS: 'web:badbrowser,U0VICTIM1' });
      t.fake.script({ content: 'fine' });
      expect((await ask(browserCalling('badbrowser'), 'q', 'web:x')).status).toBe('refused');
      expect((await ask(browserCalling('U0VICTIM1'), 'q', 'web:y')).status).toBe('answered');
      expect((await ask(slackVictim, 'q', 'slack:T0TEAM:C1')).status).toBe('refused');
    });
  });
});

describe('log lines about people', () => {
  let t: TestCore | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('carry hostile names and IDs as escaped JSON fields, never in the message text', async () => {
    t = await startTestCore(
      { BLOCK_USERS: 'web:blocked', RATE_LIMIT_USER: '1/hour' },
      {},
      { captureLogs: true },
    );
    t.fake.script({ content: 'fine' });
    const hostile = 'x"}\n{"level":60,"msg":"forged';
    const asker = { ...browserCalling('blocked'), userId: hostile };
    await t.core.assistant.ask({ key: 'web:a', author: hostile, text: hostile, asker }, () => undefined);
    const other = { ...browserCalling(`ok${hostile}`) };
    await t.core.assistant.ask(
      { key: 'web:b', author: hostile, text: hostile, asker: other },
      () => undefined,
    );
    await t.core.assistant.ask(
      { key: 'web:b', author: hostile, text: hostile, asker: other },
      () => undefined,
    );
    const lines = t.logs.join('').split('\n').filter(Boolean);
    const parsed = lines.map((line) => JSON.parse(line) as { level: number; msg: string; user?: string });
    expect(parsed.some((l) => l.level === 60)).toBe(false);
    expect(parsed.find((l) => l.msg === 'refused a question')?.user).toBe('web:blocked');
    expect(parsed.find((l) => l.msg === 'limited a question')?.user).toBe(`web:ok${hostile}`);
    for (const line of parsed) expect(line.msg).not.toContain('forged');
  });
});

describe('BLOCK_USERS by address', () => {
  const policy = {
    ALLOW_USERS: [],
    ALLOW_CHANNELS: [],
    BLOCK_CHANNELS: [],
    ALLOW_ROLES: [],
    ALLOW_DMS: true,
    ADMIN_USERS: [],
  };
  const from = (origin: string) => browserCalling(`fresh${origin.length}`, origin);

  it('refuses every browser asking from a blocked address or network, whatever its cookie', async () => {
    const BLOCK_USERS = ['addr:203.0.113.7', 'addr:198.51.100.0/24', 'addr:2001:db8:1::/48'];
    const allowed = async (origin: string) =>
      (await decideAccess({ ...policy, BLOCK_USERS }, from(origin))).allowed;
    expect(await allowed('addr:203.0.113.7')).toBe(false);
    expect(await allowed('addr:203.0.113.8')).toBe(true);
    expect(await allowed('addr:198.51.100.42')).toBe(false);
    expect(await allowed('addr:2001:db8:1:5::/64')).toBe(false);
    expect(await allowed('addr:2001:db8:2:5::/64')).toBe(true);
  });

  it('takes addresses in BLOCK_USERS only, and refuses malformed ones at start-up', () => {
    const base = { OPENAI_API_KEY: 'sk-test-key-123456' };
    expect(
      parseConfig({ ...base, BLOCK_USERS: 'addr:203.0.113.7,addr:2001:db8::/32' }).BLOCK_USERS,
    ).toHaveLength(2);
    expect(() => parseConfig({ ...base, BLOCK_USERS: 'addr:203.0.113.999' })).toThrow(
      /not addr:<IP address>/,
    );
    expect(() => parseConfig({ ...base, BLOCK_USERS: 'addr:10.0.0.0/33' })).toThrow(/not addr:<IP address>/);
    expect(() => parseConfig({ ...base, ADMIN_USERS: 'addr:203.0.113.7' })).toThrow(
      /only BLOCK_USERS takes addresses/,
    );
  });
});

describe('entries that name a user ID in any team', () => {
  it('are bare IDs and team-less slack:U… entries, listed once each for the start-up warning', () => {
    expect(
      bareEntries(
        ['U0ALICE01', 'slack:U0ALICE01', 'slack:T0ACME01:U0BOB0001', 'discord:42'],
        ['U0ALICE01', 'slack:W0GRID001', 'addr:203.0.113.7', 'web:abc'],
      ),
    ).toEqual(['U0ALICE01', 'slack:U0ALICE01', 'slack:W0GRID001']);
  });
});
