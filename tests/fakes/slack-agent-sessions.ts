// biome-ignore lint/suspicious/noExplicitAny: Slack payloads are loose JSON; tests read the fields they need.
type Json = any;

/**
 * What real Slack does and refuses with agent sessions, each rule once with where Slack says so; the fake
 * Slack (slack-server.ts) and slack-fake-sessions.test.ts read this table.
 */
export const SESSION_RULES = {
  /** `status` "Acceptable values: active processing suspended closed", else `invalid_status` (docs.slack.dev/reference/methods/agents.sessions.setStatus). */
  statuses: ['active', 'processing', 'suspended', 'closed'],
  /** setStatus `title`: "max 200 characters"; rename `title`: "1-200 characters" (same page; docs.slack.dev/reference/methods/agents.sessions.rename). */
  titleChars: 200,
  /**
   * The arguments each method takes (@slack/web-api 8.2 `AgentsSessionsSetStatusArguments`,
   * `AgentsSessionsRenameArguments`; `team_id` is what the WebClient adds for a team's client). Anything else, or a
   * missing required one, is `invalid_arguments` (docs.slack.dev/apis/web-api "Common errors").
   */
  arguments: {
    'agents.sessions.setStatus': {
      required: ['channel_id', 'status'],
      optional: ['thread_ts', 'title', 'initiator_user_id', 'icon_emoji', 'icon_url', 'username', 'team_id'],
    },
    'agents.sessions.rename': { required: ['channel_id', 'title'], optional: ['thread_ts', 'team_id'] },
  } as Record<string, { required: string[]; optional: string[] }>,
  /** "Authentication token bearing the `chat:write` scope. Must be a granular bot token": else `not_allowed_token_type`. */
  botTokenPrefix: 'xoxb-',
  /**
   * Ways a workspace or app has no sessions: `unknown_method` (a Slack that predates them), `missing_scope`
   * (`chat:write`, setStatus.json `scope.bot`), `feature_disabled` ("The agent tasks feature is not enabled for
   * this workspace"), `not_allowed_token_type`.
   */
  refusals: ['unknown_method', 'missing_scope', 'feature_disabled', 'not_allowed_token_type'],
} as const;

/** One agent session (a thread's), as the fake keeps it. */
export interface FakeAgentSession {
  channel: string;
  threadTs: string;
  status: string;
  title: string | undefined;
  /** Every status it went through, in order (`chat.startStream` and `chat.stopStream` included). */
  statuses: string[];
  /** Every title it had, in order (the app's and people's). */
  titles: string[];
  /** What made it: `agents.sessions.setStatus` or `chat.startStream` (which gives it no title). */
  createdBy: 'setStatus' | 'stream';
}

/** The agent sessions of a fake workspace. */
export function createFakeAgentSessions() {
  const sessions = new Map<string, FakeAgentSession>();
  const keyOf = (channel: string, threadTs: string) => `${channel}:${threadTs}`;
  const behaviour: { refuse?: string | undefined } = {};

  const make = (channel: string, threadTs: string, createdBy: FakeAgentSession['createdBy']) => {
    const session: FakeAgentSession = {
      channel,
      threadTs,
      status: 'processing',
      title: undefined,
      statuses: [],
      titles: [],
      createdBy,
    };
    sessions.set(keyOf(channel, threadTs), session);
    return session;
  };
  const setStatus = (session: FakeAgentSession, status: string) => {
    session.status = status;
    session.statuses.push(status);
  };

  /** Why Slack would refuse the call before looking at any session, or undefined. */
  function refusal(method: string, args: Json, token: string | undefined): Json | undefined {
    if (behaviour.refuse === 'missing_scope')
      return { ok: false, error: 'missing_scope', needed: 'chat:write', provided: 'commands' };
    if (behaviour.refuse) return { ok: false, error: behaviour.refuse };
    if (!token?.startsWith(SESSION_RULES.botTokenPrefix))
      return { ok: false, error: 'not_allowed_token_type' };
    const rule = SESSION_RULES.arguments[method]!;
    for (const name of Object.keys(args))
      if (!rule.required.includes(name) && !rule.optional.includes(name))
        return invalid(`unknown argument ${name}`);
    for (const name of rule.required)
      if (typeof args[name] !== 'string' || !args[name]) return invalid(`${name} is required`);
    // Fake channels are all regular channels and DMs, whose sessions are thread-based.
    if (!args.thread_ts) return { ok: false, error: 'thread_ts_required' };
    if (args.title !== undefined && String(args.title).length > SESSION_RULES.titleChars)
      return invalid('title is longer than 200 characters');
    return undefined;
  }

  return {
    sessions,
    behaviour,
    /** The session of `channel`'s thread `threadTs`, if one was made. */
    get: (channel: string, threadTs: string) => sessions.get(keyOf(channel, threadTs)),
    /** Answers `agents.sessions.setStatus` and `agents.sessions.rename`. */
    answer(method: string, args: Json, token: string | undefined): Json {
      const refused = refusal(method, args, token);
      if (refused) return refused;
      const existing = sessions.get(keyOf(args.channel_id, args.thread_ts));
      if (method === 'agents.sessions.rename') {
        if (!existing) return { ok: false, error: 'session_not_found' };
        existing.title = args.title;
        existing.titles.push(args.title);
        return { ok: true, title: args.title };
      }
      if (!SESSION_RULES.statuses.includes(args.status)) return { ok: false, error: 'invalid_status' };
      // "creates the session if it doesn't exist"; `title`: "Only used when creating a new session".
      const session = existing ?? make(args.channel_id, args.thread_ts, 'setStatus');
      if (!existing && args.title) {
        session.title = args.title;
        session.titles.push(args.title);
      }
      setStatus(session, args.status);
      return {
        ok: true,
        status: session.status,
        agent_status: session.status,
        ...(session.title ? { title: session.title } : {}),
      };
    },
    /** `chat.startStream` "creates a session if one doesn't exist, and sets the session status to `processing`". */
    streamStarted(channel: string, threadTs: string): void {
      if (behaviour.refuse) return;
      setStatus(sessions.get(keyOf(channel, threadTs)) ?? make(channel, threadTs, 'stream'), 'processing');
    },
    /** Why `chat.stopStream`'s `session_status` would be refused, or undefined. */
    invalidStopStatus(args: Json): string | undefined {
      const status = args.session_status;
      if (status === undefined || SESSION_RULES.statuses.includes(status)) return undefined;
      return 'session_status must be active, processing, suspended or closed';
    },
    /** `chat.stopStream` "can set the session status via the `session_status` parameter (defaults to `active`)". */
    streamStopped(channel: string, threadTs: string, status: string | undefined): void {
      const session = sessions.get(keyOf(channel, threadTs));
      if (session) setStatus(session, status ?? 'active');
    },
    /** "If a stream times out, the session status is set to `active`." */
    streamExpired(channel: string, threadTs: string): void {
      const session = sessions.get(keyOf(channel, threadTs));
      if (session && session.status === 'processing') setStatus(session, 'active');
    },
    /**
     * A person renames the session in Slack: "Users may change the title of a session at any time". Returns the
     * `agent_session_title_changed` event (docs.slack.dev/reference/events/agent_session_title_changed;
     * `previous_title` "omitted when the session had no title before").
     */
    renameByUser(
      channel: string,
      threadTs: string,
      title: string,
      user: string,
      team: string,
      eventTs: string,
    ) {
      const session = sessions.get(keyOf(channel, threadTs));
      if (!session) throw new Error(`fake Slack: no agent session in ${channel} ${threadTs}`);
      const previous = session.title;
      session.title = title;
      session.titles.push(title);
      return {
        type: 'agent_session_title_changed',
        channel,
        user,
        team_id: team,
        thread_ts: threadTs,
        title,
        ...(previous ? { previous_title: previous } : {}),
        event_ts: eventTs,
      };
    },
  };
}

function invalid(message: string): Json {
  return { ok: false, error: 'invalid_arguments', response_metadata: { messages: [message] } };
}
