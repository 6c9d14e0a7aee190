import { afterEach, describe, expect, it } from 'vitest';
import type { FakeDiscordOAuth } from '../../fakes/discord-oauth.js';
import type { FakeSlackOidc } from '../../fakes/slack-oidc.js';
import {
  DISCORD_GUILD,
  DISCORD_ROLE,
  DISCORD_USER,
  type SignInBed,
  SLACK_USER,
  signInOverHttp,
  startDiscordSignInBed,
  startSlackSignInBed,
} from './sign-in-harness.js';
import { WebClient } from './web-client.js';
import { WebUser } from './web-harness.js';

/** Goes through sign-in as a browser does and returns the callback's own answer (a redirect, or a page). */
async function signInReply(client: WebClient): Promise<{ status: number; page: string; session: boolean }> {
  const start = await client.visit('/auth/sign-in');
  const consent = await client.visit(start.location!);
  const res = await fetch(consent.location!, {
    redirect: 'manual',
    headers: { cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
  });
  client.keep(res);
  return { status: res.status, page: await res.text(), session: client.cookies.has('tt_session') };
}

const OUTSIDER = { id: '80351110224678999', username: 'eve', globalName: 'Eve' };
const MINUTE = 60_000;

describe('Discord sign-in admits only members of the deployment’s servers', () => {
  let bed: SignInBed<FakeDiscordOAuth> | undefined;
  const users: WebUser[] = [];
  afterEach(async () => {
    for (const u of users.splice(0)) u.close();
    await bed?.close();
    bed = undefined;
  });
  const signedIn = async () => {
    const user = new WebUser(bed!.bed.url);
    users.push(user);
    expect(await signInOverHttp(user.client)).toBe(bed!.bed.url);
    return user;
  };

  it('web-only (DISCORD_GUILD_ID, the user’s own guilds.members.read token): a stranger sees why, a member gets in with their roles', async () => {
    bed = await startDiscordSignInBed({ ALLOW_ROLES: DISCORD_ROLE });
    bed.provider.signInAs(OUTSIDER);
    const stranger = new WebClient(bed.bed.url);
    const refused = await signInReply(stranger);
    expect(refused.status).toBe(403);
    expect(refused.page).toContain(`the server ${DISCORD_GUILD.id}`);
    expect(refused.page).toMatch(/is not one/);
    expect(refused.session).toBe(false);
    expect((await stranger.request('/api/ask', { text: 'hi' })).status).toBe(401);
    // The member's check was asked with their own token, as the bot has none here.
    expect(bed.provider.requests.some((r) => r.url.pathname.startsWith('/api/v10/'))).toBe(false);

    bed.provider.signInAs(DISCORD_USER);
    const member = await signedIn();
    bed.bed.test.fake.script({ content: 'Hello, Bob.' });
    // ALLOW_ROLES lets in only holders of the role: the role came from the membership check.
    expect((await member.ask('hello')).answer).toBe('Hello, Bob.');
  });

  it('with the bot’s token and no DISCORD_GUILD_ID: the servers the bot is in count, named on the refusal page', async () => {
    bed = await startDiscordSignInBed({}, { bot: true });
    bed.provider.signInAs(OUTSIDER);
    const refused = await signInReply(new WebClient(bed.bed.url));
    expect(refused.status).toBe(403);
    expect(refused.page).toContain('“Acme HQ”');
    bed.provider.signInAs(DISCORD_USER);
    await signedIn();
    expect(
      bed.provider.requests.some(
        (r) => r.url.pathname === `/api/v10/guilds/${DISCORD_GUILD.id}/members/${DISCORD_USER.id}`,
      ),
    ).toBe(true);
  });

  it('a member who leaves the server is signed out at the next check (WEB_MEMBERSHIP_CHECK), not before', async () => {
    let clock = Date.now();
    bed = await startDiscordSignInBed({ WEB_MEMBERSHIP_CHECK: '10m' }, { bot: true, now: () => clock });
    const member = await signedIn();
    bed.provider.guilds.get(DISCORD_GUILD.id)!.members.delete(DISCORD_USER.id);
    clock += 9 * MINUTE;
    expect((await member.client.request('/api/session')).status).toBe(200);
    clock += 2 * MINUTE;
    expect((await member.client.request('/api/session')).status).toBe(401);
    // Joining again does not bring the old cookie back: its session was deleted.
    bed.provider.guilds.get(DISCORD_GUILD.id)!.members.set(DISCORD_USER.id, []);
    expect((await member.client.request('/api/session')).status).toBe(401);
  });

  it('web-only: revoking the app’s access in Discord ends the session at the next check', async () => {
    let clock = Date.now();
    bed = await startDiscordSignInBed({}, { now: () => clock });
    const member = await signedIn();
    bed.provider.revokeTokens(DISCORD_USER.id);
    clock += 11 * MINUTE;
    expect((await member.client.request('/api/session')).status).toBe(401);
  });
});

describe('Slack sign-in admits only the deployment’s workspace', () => {
  let bed: SignInBed<FakeSlackOidc> | undefined;
  afterEach(async () => {
    await bed?.close();
    bed = undefined;
  });
  const other = { userId: 'U0MALLORY', teamId: 'T0OTHER99', name: 'Mallory' };

  it('refuses a user of another workspace, even one ADMIN_USERS names by a bare or team-less ID', async () => {
    bed = await startSlackSignInBed({ ADMIN_USERS: `U0MALLORY,slack:U0MALLORY` });
    bed.provider.signInAs(other);
    const client = new WebClient(bed.bed.url);
    const refused = await signInReply(client);
    expect(refused.status).toBe(403);
    expect(refused.page).toContain('the Slack workspace T0ACME01');
    expect(refused.session).toBe(false);
    expect((await client.request('/admin/api/session')).status).toBe(401);
  });

  it('with the bot token, the workspace is auth.test’s team (named on the page); its own people get in', async () => {
    bed = await startSlackSignInBed({}, { bot: true });
    bed.provider.signInAs(other);
    const refused = await signInReply(new WebClient(bed.bed.url));
    expect(refused.page).toContain('the Slack workspace “Acme”');
    bed.provider.signInAs(SLACK_USER);
    const client = new WebClient(bed.bed.url);
    expect(await signInOverHttp(client)).toBe(bed.bed.url);
  });

  it('SLACK_TEAM_ID=E… admits people of any workspace of that Enterprise Grid organization, and no one else', async () => {
    bed = await startSlackSignInBed({ SLACK_TEAM_ID: 'E0ORG0001' });
    bed.provider.signInAs({
      userId: 'W0GRID001',
      teamId: 'T0BRANCH1',
      name: 'Grace',
      enterpriseId: 'E0ORG0001',
    });
    expect(await signInOverHttp(new WebClient(bed.bed.url))).toBe(bed.bed.url);
    bed.provider.signInAs({ ...other, enterpriseId: 'E0ELSE002' });
    expect((await signInReply(new WebClient(bed.bed.url))).status).toBe(403);
  });

  it('a deactivated user (users.info) is signed out at the next check; web-only, a revoked token is', async () => {
    let clock = Date.now();
    bed = await startSlackSignInBed({}, { bot: true, now: () => clock });
    const client = new WebClient(bed.bed.url);
    expect(await signInOverHttp(client)).toBe(bed.bed.url);
    bed.provider.users.set(SLACK_USER.userId, { ...SLACK_USER, deleted: true });
    clock += 11 * MINUTE;
    expect((await client.request('/api/session')).status).toBe(401);
    await bed.close();

    bed = await startSlackSignInBed({}, { now: () => clock });
    const again = new WebClient(bed.bed.url);
    expect(await signInOverHttp(again)).toBe(bed.bed.url);
    bed.provider.revokeTokens(SLACK_USER.userId);
    clock += 11 * MINUTE;
    expect((await again.request('/api/session')).status).toBe(401);
  });
});
