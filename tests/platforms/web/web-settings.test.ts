import { afterEach, describe, expect, it } from 'vitest';
import { WORDING } from '../../../src/platforms/shared/wording.js';
import type { FakeSlackOidc } from '../../fakes/slack-oidc.js';
import { type SignInBed, signInOverHttp, startSlackSignInBed } from './sign-in-harness.js';
import { startWebBed, stepsText, TOKEN, type WebBed, WebUser } from './web-harness.js';

describe('web chat: /settings and the admins’ /usage', () => {
  let bed: WebBed | undefined;
  let signIn: SignInBed<FakeSlackOidc> | undefined;
  const users: WebUser[] = [];
  const browser = (url: string, id?: string) => {
    const user = new WebUser(url, id);
    users.push(user);
    return user;
  };
  afterEach(async () => {
    for (const u of users.splice(0)) u.close();
    await bed?.close();
    await signIn?.close();
    bed = undefined;
    signIn = undefined;
  });

  it('refuses a local browser, whatever ID its cookie claims and whatever ADMIN_USERS says', async () => {
    bed = await startWebBed({ ADMIN_USERS: 'U0ADMIN01,web:U0ADMIN01' });
    const claimant = browser(bed.url, 'U0ADMIN01');
    expect(await claimant.command('/settings prompt Be rude.')).toBe(WORDING.settingsAdminsOnly);
    expect(await claimant.command('/settings')).toBe(WORDING.settingsAdminsOnly);
    expect(await claimant.command('/usage')).not.toContain('Top users this month');
  });

  it('refuses a browser let in by the token', async () => {
    bed = await startWebBed({ WEB_CHAT_TOKEN: TOKEN, ADMIN_USERS: 'U0ADMIN01,web:U0ADMIN01' });
    const holder = browser(bed.url, 'U0ADMIN01');
    expect((await holder.client.request('/api/login', { token: TOKEN })).status).toBe(204);
    expect(await holder.command('/settings prompt Be rude.')).toBe(WORDING.settingsAdminsOnly);
    expect(await holder.command('/usage')).not.toContain('Top users this month');
  });

  it('is for a signed-in admin: they set their chat’s prompt and see the top users; others’ chats are untouched', async () => {
    signIn = await startSlackSignInBed({ ADMIN_USERS: 'slack:U0ALICE01' });
    const { bed: web, provider } = signIn;
    const admin = browser(web.url);
    await signInOverHttp(admin.client);
    expect(await admin.command('/settings prompt Answer in one word.')).toContain(
      'Prompt: Answer in one word.',
    );
    provider.signInAs({ userId: 'U0BOB0001', teamId: 'T0ACME01', name: 'Bob' });
    const someone = browser(web.url);
    await signInOverHttp(someone.client);
    expect(await someone.command('/settings prompt Be rude.')).toBe(WORDING.settingsAdminsOnly);

    web.test.fake.script({ content: 'Paris.' }, { content: 'The capital is Paris.' });
    expect((await admin.ask('capital of France?')).answer).toBe('Paris.');
    await someone.ask('capital of France?');
    const [mine, theirs] = web.test.fake.requests;
    expect(JSON.stringify(mine!.body.messages)).toContain('Answer in one word.');
    expect(JSON.stringify(theirs!.body.messages)).not.toContain('Answer in one word.');
    expect(await admin.command('/usage')).toContain('Top users this month');
    expect(await someone.command('/usage')).not.toContain('Top users this month');

    // `/settings steps off` hides the steps of the admin's chat, live and as kept; others still see theirs.
    expect(await admin.command('/settings steps off')).toContain('Steps: off');
    const toolThenAnswer = () =>
      web.test.fake.script(
        { content: 'Checking the clock.', toolCalls: [{ name: 'current_time', arguments: {} }] },
        { content: 'It is late.' },
      );
    toolThenAnswer();
    const hidden = await admin.ask('what time is it?');
    expect(hidden.answer).toBe('It is late.');
    expect(hidden.steps).toEqual([]);
    toolThenAnswer();
    expect(stepsText(await someone.ask('what time is it?'))).toContain('current_time');
  });
});
