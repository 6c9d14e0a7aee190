import type { Principal } from './principal.js';

/** Who is asking, as the platform knows them: what access rules, limits and usage records are keyed by. */
export interface Asker {
  /** `discord`, `slack`, `console`, … */
  platform: string;
  /** The asker's platform ID (Discord snowflake, Slack `U…`), for mentions and Stop buttons. */
  userId: string;
  /**
   * Who the asker is, bound to where it was proven (`slack:T…:U…`, `discord:…`, `web:…`, `console:…`):
   * what access lists, admins, limits, budgets and usage records are keyed by. A web user signed in with
   * Slack is that Slack principal on the `web` platform.
   */
  principal: Principal;
  /**
   * Where the question came from, when limits must outlast a new identity (a web client's address): the
   * user's rate limit and budget count it too.
   */
  origin?: string | undefined;
  /** The channel the access lists see: a thread's parent channel; absent in a DM. */
  channelId?: string | undefined;
  /** A direct message with the bot. */
  dm: boolean;
  /** A private channel (Slack private channel or group DM, Discord private thread or group DM). */
  privateChannel?: boolean | undefined;
  /** Discord role IDs the member has. */
  roles?: readonly string[] | undefined;
  /**
   * The platform says this person administers the place (Discord Manage Server, Slack admin or owner); a
   * promise when it takes a lookup, awaited only where it matters.
   */
  platformAdmin?: boolean | PromiseLike<boolean> | undefined;
  /**
   * The platform decides itself who reaches it (the web chat's token): the allow lists (ALLOW_USERS,
   * ALLOW_ROLES, ALLOW_CHANNELS, ALLOW_DMS) do not apply; BLOCK_USERS still does.
   */
  platformGated?: boolean | undefined;
  /** The schedule asking as its creator (its id): the run is scheduled, not asked by the person just now. */
  viaSchedule?: string | undefined;
}
