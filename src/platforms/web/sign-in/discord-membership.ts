import { getJson, type Membership } from './membership.js';

/** Where and how membership of the deployment's Discord servers is checked. */
export interface DiscordMembershipOptions {
  /** DISCORD_OAUTH_URL (`https://discord.com`): the user's own token calls `/api/users/@me/guilds/{guild}/member`. */
  oauthBase: string;
  /** DISCORD_API_URL (`https://discord.com/api`): the bot's token calls `/v10/guilds/{guild}/members/{user}`. */
  apiUrl: string;
  /** DISCORD_TOKEN; without it only the user's token (scope `guilds.members.read`) can tell. */
  botToken?: string | undefined;
  /** DISCORD_GUILD_ID; without it, every server the bot is in. */
  guildId?: string | undefined;
}

/** The deployment's servers: who counts as in them. */
export interface DiscordMembership {
  /** Whether `userId` is a member of one of the servers; `userToken` is theirs (needed without a bot token). */
  check(userId: string, userToken: string | undefined): Promise<Membership>;
  /** The servers, named for the refusal page. */
  describe(): Promise<string>;
}

/** Discord's JSON error codes met here (https://discord.com/developers/docs/topics/opcodes-and-status-codes#json). */
const UNKNOWN_GUILD = 10004;
const UNKNOWN_MEMBER = 10007;
/** How long the bot's list of servers is trusted before it is read again. */
const GUILD_LIST_MS = 10 * 60_000;
/** Servers read from the bot's list: five pages of Get Current User Guilds (at most 200 each). */
const MAX_GUILDS = 1000;

interface Guild {
  id: string;
  name?: string | undefined;
}

/**
 * Membership of DISCORD_GUILD_ID (or of the servers the bot is in), read with the bot's token
 * (`GET /guilds/{guild}/members/{user}`) when there is one, else with the user's own OAuth token and the
 * `guilds.members.read` scope (`GET /users/@me/guilds/{guild}/member`). A 404 with 10004 Unknown Guild or
 * 10007 Unknown Member means not a member; anything else is "could not tell". Roles come from the member.
 */
export function createDiscordMembership(options: DiscordMembershipOptions): DiscordMembership {
  const api = `${options.apiUrl.replace(/\/+$/, '')}/v10`;
  const oauth = `${options.oauthBase.replace(/\/+$/, '')}/api`;
  const bot = options.botToken ? `Bot ${options.botToken}` : undefined;
  let listed: { at: number; guilds: Guild[] } | undefined;

  /** The servers that count; DISCORD_GUILD_ID is named only by {@link namedGuilds} (checks need no name). */
  const botGuilds = async (): Promise<Guild[] | undefined> => {
    if (options.guildId) return [{ id: options.guildId }];
    if (!bot) return undefined;
    if (listed && Date.now() - listed.at < GUILD_LIST_MS) return listed.guilds;
    const guilds: Guild[] = [];
    let after = '0';
    while (guilds.length < MAX_GUILDS) {
      const { status, body } = await getJson(`${api}/users/@me/guilds?limit=200&after=${after}`, bot);
      const page = status === 200 && Array.isArray(body) ? (body as Guild[]) : undefined;
      if (!page) return undefined;
      guilds.push(...page.filter((g) => typeof g.id === 'string'));
      if (page.length < 200) break;
      after = page.at(-1)!.id;
    }
    listed = { at: Date.now(), guilds };
    return guilds;
  };

  /** The servers with their names, for the refusal page: DISCORD_GUILD_ID's read with the bot token when there is one. */
  const namedGuilds = async (): Promise<Guild[] | undefined> => {
    if (!options.guildId || !bot) return botGuilds();
    const { status, body } = await getJson(`${api}/guilds/${options.guildId}`, bot);
    return [
      { id: options.guildId, name: status === 200 && typeof body?.name === 'string' ? body.name : undefined },
    ];
  };

  const memberIn = async (guild: string, userId: string, userToken: string | undefined) => {
    const read = bot
      ? await getJson(`${api}/guilds/${guild}/members/${userId}`, bot)
      : userToken
        ? await getJson(`${oauth}/users/@me/guilds/${guild}/member`, `Bearer ${userToken}`)
        : undefined;
    if (!read) return { status: 'unknown', why: 'no token to ask Discord with' } as const;
    if (read.status === 200) {
      const roles = Array.isArray(read.body?.roles) ? read.body.roles : [];
      return { status: 'member', roles: roles.filter((r): r is string => typeof r === 'string') } as const;
    }
    const code = read.body?.code;
    if (read.status === 404 && (code === UNKNOWN_GUILD || code === UNKNOWN_MEMBER))
      return { status: 'outside', why: 'not a member' } as const;
    if (read.status === 401 && !bot)
      return { status: 'outside', why: 'Discord no longer accepts the sign-in' } as const;
    return { status: 'unknown', why: `Discord answered ${read.status || 'nothing'}` } as const;
  };

  return {
    async check(userId, userToken) {
      const guilds = await botGuilds();
      if (!guilds) return { status: 'unknown', why: 'could not list the bot’s servers' };
      let unknown: Membership | undefined;
      for (const guild of guilds) {
        const found: Membership = await memberIn(guild.id, userId, userToken);
        if (found.status === 'member') return found;
        if (found.status === 'unknown') unknown ??= found;
      }
      return unknown ?? { status: 'outside', why: 'not a member of the deployment’s Discord servers' };
    },
    async describe() {
      const guilds = (await namedGuilds().catch(() => undefined)) ?? [];
      const named = guilds.slice(0, 3).map((g) => (g.name ? `“${g.name}”` : `the server ${g.id}`));
      if (named.length === 0) return 'the Discord servers this bot serves';
      const more =
        guilds.length > named.length ? ` (or another of the ${guilds.length} servers this bot is in)` : '';
      return `${named.join(', ')}${more}`;
    },
  };
}
