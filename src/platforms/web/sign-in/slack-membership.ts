import { getJson, type Membership } from './membership.js';

/** Where and how the deployment's Slack workspace is known. */
export interface SlackMembershipOptions {
  /** SLACK_API_URL (`https://slack.com/api/`). */
  apiUrl: string;
  /** SLACK_BOT_TOKEN: its team (auth.test) is the workspace, and users.info re-checks people. */
  botToken?: string | undefined;
  /** SLACK_TEAM_ID: the workspace (T…) or Enterprise Grid org (E…) for a web-only deployment. */
  teamId?: string | undefined;
  /** Slack's `openid.connect.userInfo` endpoint, which re-checks a person with their own token (no bot token). */
  userInfoUrl: string;
}

/** The deployment's workspace: which team (or Grid org) it is. */
export interface SlackHome {
  teams: ReadonlySet<string>;
  enterprise?: string | undefined;
  /** Its name, for the refusal page. */
  name: string;
}

/** Who counts as in the deployment's Slack workspace. */
export interface SlackMembership {
  /** The workspace, or undefined while Slack cannot say (auth.test failed). */
  home(): Promise<SlackHome | undefined>;
  /** Whether a person of `team` (in Grid org `enterprise`) belongs to it. */
  admits(home: SlackHome, team: string, enterprise: string | undefined): boolean;
  /** Whether `userId` still belongs, asked with the bot's token or else with `userToken`. */
  check(userId: string, userToken: string | undefined): Promise<Membership>;
}

/** Slack errors that mean the person (or their token) is gone, not that Slack could not answer. */
const GONE = new Set([
  'user_not_found',
  'account_inactive',
  'invalid_auth',
  'token_revoked',
  'not_authed',
  'token_expired',
]);

/**
 * The workspace of SLACK_TEAM_ID, else of SLACK_BOT_TOKEN (`auth.test`'s `team_id` and `enterprise_id`).
 * People are re-checked with `users.info` (bot token: deactivated or of another team is outside) or, for a
 * web-only deployment, with `openid.connect.userInfo` and their own token (revoked or inactive is outside).
 */
export function createSlackMembership(options: SlackMembershipOptions): SlackMembership {
  const api = options.apiUrl.endsWith('/') ? options.apiUrl : `${options.apiUrl}/`;
  const bot = options.botToken ? `Bearer ${options.botToken}` : undefined;
  let known: SlackHome | undefined;

  const fromId = (id: string): SlackHome =>
    id.startsWith('E')
      ? { teams: new Set(), enterprise: id, name: `the Slack organization ${id}` }
      : { teams: new Set([id]), name: `the Slack workspace ${id}` };

  const home = async (): Promise<SlackHome | undefined> => {
    if (known) return known;
    if (options.teamId) {
      known = fromId(options.teamId);
      return known;
    }
    if (!bot) return undefined;
    const { body } = await getJson(`${api}auth.test`, bot);
    if (body?.ok !== true || typeof body.team_id !== 'string') return undefined;
    const enterprise =
      typeof body.enterprise_id === 'string' && body.enterprise_id ? body.enterprise_id : undefined;
    const name =
      typeof body.team === 'string' && body.team
        ? `the Slack workspace “${body.team}”`
        : `the Slack workspace ${body.team_id}`;
    known = { teams: new Set([body.team_id]), enterprise, name };
    return known;
  };

  const admits = (at: SlackHome, team: string, enterprise: string | undefined) =>
    at.teams.has(team) || (at.enterprise !== undefined && at.enterprise === enterprise);

  return {
    home,
    admits,
    async check(userId, userToken) {
      const at = await home();
      if (!at) return { status: 'unknown', why: 'Slack did not name the workspace' };
      if (bot) {
        const { body } = await getJson(`${api}users.info?user=${encodeURIComponent(userId)}`, bot);
        if (body?.ok === true && body.user && typeof body.user === 'object') {
          const user = body.user as {
            deleted?: unknown;
            team_id?: unknown;
            enterprise_user?: { enterprise_id?: unknown };
          };
          if (user.deleted === true) return { status: 'outside', why: 'deactivated in Slack' };
          const team = typeof user.team_id === 'string' ? user.team_id : '';
          const org =
            typeof user.enterprise_user?.enterprise_id === 'string'
              ? user.enterprise_user.enterprise_id
              : undefined;
          return admits(at, team, org)
            ? { status: 'member', roles: [] }
            : { status: 'outside', why: 'of another workspace' };
        }
        if (typeof body?.error === 'string' && GONE.has(body.error) && body.error !== 'invalid_auth')
          return { status: 'outside', why: body.error };
        return { status: 'unknown', why: `users.info: ${String(body?.error ?? 'no answer')}` };
      }
      if (!userToken) return { status: 'unknown', why: 'no token to ask Slack with' };
      const { body } = await getJson(options.userInfoUrl, `Bearer ${userToken}`);
      if (body?.ok === true) {
        const team = body['https://slack.com/team_id'];
        const org = body['https://slack.com/enterprise_id'];
        return body.sub === userId &&
          typeof team === 'string' &&
          admits(at, team, typeof org === 'string' ? org : undefined)
          ? { status: 'member', roles: [] }
          : { status: 'outside', why: 'of another workspace' };
      }
      if (typeof body?.error === 'string' && GONE.has(body.error))
        return { status: 'outside', why: body.error };
      return { status: 'unknown', why: `openid.connect.userInfo: ${String(body?.error ?? 'no answer')}` };
    },
  };
}
