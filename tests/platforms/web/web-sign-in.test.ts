import { afterEach, describe, expect, it } from 'vitest';
import { WORDING } from '../../../src/platforms/shared/wording.js';
import type { FakeDiscordOAuth } from '../../fakes/discord-oauth.js';
import type { FakeSlackOidc } from '../../fakes/slack-oidc.js';
import {
  DISCORD_PRINCIPAL,
  type SignInBed,
  SLACK_PRINCIPAL,
  SLACK_USER,
  signInOverHttp,
  startDiscordSignInBed,
  startSlackSignInBed,
} from './sign-in-harness.js';
import { WebClient } from './web-client.js';
import { startWebBed, type WebBed, WebUser } from './web-harness.js';

/** Asks through the core as the Slack chat would, so the Slack principal has usage of its own. */
async function askInSlack(bed: WebBed, principal: string, text: string): Promise<void> {
  await bed.test.core.assistant.ask(
    {
      key: 'slack:T0ACME01:C0GENERAL',
      author: 'Alice',
      text,
      asker: { platform: 'slack', userId: 'U0ALICE01', principal, dm: false, channelId: 'C0GENERAL' },
    },
    () => {},
  );
}

describe('web sign-in with Slack (OpenID Connect) over HTTP', () => {
  let signIn: SignInBed<FakeSlackOidc> | undefined;
  const users: WebUser[] = [];
  const extra: WebBed[] = [];
  const signedIn = async (bed: WebBed) => {
    const user = new WebUser(bed.url);
    users.push(user);
    expect(await signInOverHttp(user.client)).toBe(bed.url);
    return user;
  };
  afterEach(async () => {
    for (const u of users.splice(0)) u.close();
    for (const b of extra.splice(0)) await b.close();
    await signIn?.close();
    signIn = undefined;
  });

  it('answers 401 with what the page needs to show the sign-in button', async () => {
    signIn = await startSlackSignInBed();
    const anonymous = new WebClient(signIn.bed.url);
    const session = await anonymous.request('/api/session');
    expect(session.status).toBe(401);
    expect(session.body).toEqual({ auth: 'slack', signIn: '/auth/sign-in', label: 'Sign in with Slack' });
    expect((await anonymous.request('/api/ask', { text: 'hi' })).status).toBe(401);
    expect((await anonymous.request('/api/login', { token: 'anything' })).status).toBe(404);
  });

  it('signs in with state, nonce and PKCE; the session is an opaque, HttpOnly, SameSite=Lax cookie; the user asks as the Slack principal', async () => {
    signIn = await startSlackSignInBed();
    const { bed, provider } = signIn;
    const client = new WebClient(bed.url);
    const start = await client.visit('/auth/sign-in');
    const authorize = new URL(start.location!);
    expect(authorize.origin + authorize.pathname).toBe(`${provider.url}/openid/connect/authorize`);
    const q = authorize.searchParams;
    expect(q.get('scope')).toBe('openid profile');
    expect(q.get('redirect_uri')).toBe(`${bed.url}auth/callback`);
    expect(q.get('state')).toBeTruthy();
    expect(q.get('nonce')).toBeTruthy();
    expect(q.get('code_challenge_method')).toBe('S256');
    expect(client.cookies.has('tt_signin')).toBe(true);

    const consent = await client.visit(authorize);
    const back = await fetch(consent.location!, {
      redirect: 'manual',
      headers: { cookie: `tt_signin=${client.cookies.get('tt_signin')}` },
    });
    expect(back.status).toBe(302);
    expect(back.headers.get('location')).toBe(bed.url);
    const set = back.headers.getSetCookie();
    const session = set.find((c) => c.startsWith('tt_session='))!;
    expect(session).toMatch(/^tt_session=[\w-]{60,}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+$/);
    expect(session).not.toMatch(/U0ALICE01|T0ACME01|Alice/);
    expect(set.find((c) => c.startsWith('tt_signin='))).toMatch(/Max-Age=0/);
    // The ID token's signature was checked against Slack's published keys.
    expect(provider.requests.some((r) => r.url.pathname === '/openid/connect/keys')).toBe(true);
    client.keep(back);

    const user = new WebUser(bed.url);
    users.push(user);
    for (const [k, v] of client.cookies) user.client.cookies.set(k, v);
    const me = await user.client.request('/api/session');
    expect(me.body).toMatchObject({ auth: 'slack', user: { name: SLACK_USER.name } });
    bed.test.fake.script({ content: 'Hello, Alice.' });
    expect((await user.ask('hello')).answer).toBe('Hello, Alice.');
    const usage = await bed.test.core.assistant.usage(
      { platform: 'slack', userId: 'U0ALICE01', principal: SLACK_PRINCIPAL, dm: true },
      'slack:elsewhere',
    );
    expect(JSON.stringify(usage)).toMatch(/"questions":1/);
  });

  it('is limited as the Slack user is: their questions in Slack count in the browser', async () => {
    signIn = await startSlackSignInBed({ RATE_LIMIT_USER: '1/hour' });
    const { bed } = signIn;
    bed.test.fake.script({ content: 'Asked in Slack.' });
    await askInSlack(bed, SLACK_PRINCIPAL, 'a question in Slack');
    const user = await signedIn(bed);
    expect((await user.ask('and one in the browser')).problem).toMatch(/limit of 1 question per hour/);
    expect(bed.test.fake.requests).toHaveLength(1);
  });

  it('gives a Slack admin /settings in the browser, and refuses everyone else', async () => {
    signIn = await startSlackSignInBed({ ADMIN_USERS: 'slack:U0ALICE01' });
    const admin = await signedIn(signIn.bed);
    expect(await admin.command('/settings prompt Answer in one word.')).toContain(
      'Prompt: Answer in one word.',
    );
    signIn.provider.signInAs({ userId: 'U0BOB0001', teamId: 'T0ACME01', name: 'Bob' });
    const other = await signedIn(signIn.bed);
    expect(await other.command('/settings prompt Be rude.')).toBe(WORDING.settingsAdminsOnly);
  });

  it('signs out with a POST: the session is cleared and the API answers 401 again', async () => {
    signIn = await startSlackSignInBed();
    const user = await signedIn(signIn.bed);
    expect((await user.client.request('/api/session')).status).toBe(200);
    const out = await user.client.request('/auth/sign-out', {});
    expect(out.status).toBe(204);
    expect(out.headers.getSetCookie().find((c) => c.startsWith('tt_session='))).toMatch(/Max-Age=0/);
    expect(user.client.cookies.has('tt_session')).toBe(false);
    expect((await user.client.request('/api/session')).status).toBe(401);
  });

  it('refuses a callback whose state is not this browser’s (a code injected from another sign-in)', async () => {
    signIn = await startSlackSignInBed();
    const victim = new WebClient(signIn.bed.url);
    const attacker = new WebClient(signIn.bed.url);
    await victim.visit('/auth/sign-in');
    const attackerStart = await attacker.visit('/auth/sign-in');
    const attackerBack = await attacker.visit(attackerStart.location!);
    // The victim is lured to the attacker's callback URL: their own pending sign-in has another state.
    const landed = await victim.visit(attackerBack.location!);
    expect(landed.location).toBe(`${signIn.bed.url}?sign-in=failed`);
    expect(victim.cookies.has('tt_session')).toBe(false);
    // Without any pending sign-in (no cookie) the callback proves nothing either.
    const bare = await new WebClient(signIn.bed.url).visit(attackerBack.location!);
    expect(bare.location).toBe(`${signIn.bed.url}?sign-in=failed`);
  });

  it('refuses a reused code, as Slack does', async () => {
    signIn = await startSlackSignInBed();
    const client = new WebClient(signIn.bed.url);
    const start = await client.visit('/auth/sign-in');
    const pending = client.cookies.get('tt_signin')!;
    const back = await client.visit(start.location!);
    expect((await client.visit(back.location!)).location).toBe(signIn.bed.url);
    expect(client.cookies.has('tt_session')).toBe(true);
    const replay = new WebClient(signIn.bed.url);
    replay.cookies.set('tt_signin', pending);
    expect((await replay.visit(back.location!)).location).toBe(`${signIn.bed.url}?sign-in=failed`);
    expect(signIn.provider.refusals).toContain('invalid_code');
  });

  it('fails the sign-in when the client secret is wrong (Slack answers bad_client_secret)', async () => {
    signIn = await startSlackSignInBed({}, { clientSecret: 'not-the-secret' });
    const client = new WebClient(signIn.bed.url);
    expect(await signInOverHttp(client)).toBe(`${signIn.bed.url}?sign-in=failed`);
    expect(signIn.provider.refusals).toEqual(['bad_client_secret']);
    expect(client.cookies.has('tt_session')).toBe(false);
  });

  it('never reaches the callback with a redirect URI the Slack app does not list', async () => {
    signIn = await startSlackSignInBed({}, { redirectUri: 'https://elsewhere.example/auth/callback' });
    const client = new WebClient(signIn.bed.url);
    const start = await client.visit('/auth/sign-in');
    expect((await client.visit(start.location!)).status).toBe(400);
  });

  it('refuses a tampered session cookie; another replica with the same WEB_SESSION_SECRET and store reads a good one', async () => {
    const secret = 'a-session-secret-of-at-least-32-characters';
    signIn = await startSlackSignInBed({ WEB_SESSION_SECRET: secret });
    const user = await signedIn(signIn.bed);
    const replica = await startWebBed(
      {
        WEB_AUTH: 'slack',
        WEB_PUBLIC_URL: signIn.bed.url,
        SLACK_CLIENT_ID: 'x',
        SLACK_CLIENT_SECRET: 'y',
        SLACK_TEAM_ID: 'T0ACME01',
        WEB_SESSION_SECRET: secret,
      },
      {},
      { databaseUrl: signIn.bed.test.config.DATABASE_URL },
    );
    extra.push(replica);
    const there = new WebClient(replica.url);
    for (const [k, v] of user.client.cookies) there.cookies.set(k, v);
    expect((await there.request('/api/session')).body).toMatchObject({ user: { name: SLACK_USER.name } });

    const value = user.client.cookies.get('tt_session')!;
    const flipped = `${value.slice(0, 20)}${value[20] === 'A' ? 'B' : 'A'}${value.slice(21)}`;
    const forged = new WebClient(signIn.bed.url);
    forged.cookies.set('tt_session', flipped);
    expect((await forged.request('/api/session')).status).toBe(401);
  });
});

describe('web sign-in with Discord (OAuth2 with PKCE) over HTTP', () => {
  let signIn: SignInBed<FakeDiscordOAuth> | undefined;
  const users: WebUser[] = [];
  afterEach(async () => {
    for (const u of users.splice(0)) u.close();
    await signIn?.close();
    signIn = undefined;
  });

  it('signs in with the identify scope and PKCE, and asks as the Discord principal', async () => {
    signIn = await startDiscordSignInBed({ ADMIN_USERS: DISCORD_PRINCIPAL });
    const { bed, provider } = signIn;
    const user = new WebUser(bed.url);
    users.push(user);
    expect(await signInOverHttp(user.client)).toBe(bed.url);
    const authorize = provider.requests.find((r) => r.url.pathname === '/oauth2/authorize')!;
    expect(authorize.url.searchParams.get('scope')).toBe('identify guilds.members.read');
    expect(authorize.url.searchParams.get('code_challenge_method')).toBe('S256');
    const tokenRequest = provider.requests.find((r) => r.url.pathname === '/api/oauth2/token')!;
    expect(new URLSearchParams(tokenRequest.body).get('code_verifier')).toBeTruthy();
    expect((await user.client.request('/api/session')).body).toMatchObject({ user: { name: 'Bob' } });
    // ADMIN_USERS names the Discord principal: the same person is an admin in the browser.
    expect(await user.command('/settings prompt Answer in one word.')).toContain(
      'Prompt: Answer in one word.',
    );
  });

  it('the fake refuses a missing or wrong code_verifier with invalid_grant, as Discord does', async () => {
    signIn = await startDiscordSignInBed();
    const { bed, provider } = signIn;
    const consented = async (client: WebClient) => {
      const start = await client.visit('/auth/sign-in');
      return new URL((await client.visit(start.location!)).location!);
    };
    const exchange = (back: URL, extra: Record<string, string>) =>
      fetch(`${provider.url}/api/oauth2/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          client_id: '1234567890123456789',
          client_secret: 'discord-client-secret-for-tests',
          grant_type: 'authorization_code',
          code: back.searchParams.get('code')!,
          redirect_uri: `${bed.url}auth/callback`,
          ...extra,
        }),
      });
    const client = new WebClient(bed.url);
    const back = await consented(client);
    const missing = await exchange(back, {});
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ error: 'invalid_grant' });
    // A refused exchange burns the code; the browser's own callback then fails too.
    expect((await client.visit(back)).location).toBe(`${bed.url}?sign-in=failed`);
    const wrong = await exchange(await consented(new WebClient(bed.url)), { code_verifier: 'x'.repeat(43) });
    expect(wrong.status).toBe(400);
    expect(provider.refusals).toEqual([
      'invalid_grant: Missing "code_verifier" in request.',
      'invalid_grant: Invalid "code" in request.',
      'invalid_grant: Invalid "code_verifier" in request.',
    ]);
  });

  it('fails the sign-in when the client secret is wrong (Discord answers invalid_client)', async () => {
    signIn = await startDiscordSignInBed({}, { clientSecret: 'not-the-secret' });
    const client = new WebClient(signIn.bed.url);
    expect(await signInOverHttp(client)).toBe(`${signIn.bed.url}?sign-in=failed`);
    expect(signIn.provider.refusals).toEqual(['invalid_client']);
  });
});
