/** Who is asking, as the platform knows them: what access rules, limits and usage records are keyed by. */
export interface Asker {
  /** `discord`, `slack`, `console`, … */
  platform: string;
  /** The asker's platform ID (Discord snowflake, Slack `U…`). */
  userId: string;
  /** The channel the access lists see: a thread's parent channel; absent in a DM. */
  channelId?: string | undefined;
  /** A direct message with the bot. */
  dm: boolean;
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
}
