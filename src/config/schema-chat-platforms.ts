import { z } from 'zod';
import { bool, duration, int, optionalText, slashCommand, url } from './fields.js';
import { suggestedPrompts } from './list-fields.js';
import { settingGroup } from './setting-group.js';

/** Discord and Slack: tokens, API addresses, commands and how answers stream. */
export const chatPlatformSettings = settingGroup({
  title: 'Discord and Slack',
  intro:
    'A token enables its platform; with several, one process serves them all. With none configured (and no ' +
    'web chat), `npm start` opens the terminal chat.',
  shape: {
    STREAM_EDIT_INTERVAL_MS: int(1000, 0).describe('At most one edit of a streaming answer per interval.'),
    ANSWER_MAX_MESSAGES: int(4, 1).describe(
      'Messages one answer may take on Discord or Slack; past them the answer is cut with a note.',
    ),
    FOLLOW_THREADS: bool(true).describe(
      'Once the bot has answered in a thread, the asker’s follow-ups there need no mention, until another ' +
        'person speaks there (then only mentions) or `FOLLOW_IDLE` passes; a thanks gets a reaction. Per ' +
        'channel: `/settings follow on|off`. Slack needs the `message.channels` / `message.groups` events ' +
        '(docs/slack.md).',
    ),
    FOLLOW_IDLE: duration('24h').describe(
      'The bot stops following a thread after this long without answering there.',
    ),
    DISCORD_TOKEN: optionalText.describe(
      'The Discord bot token; setting it enables Discord (docs/discord.md).',
    ),
    DISCORD_GUILD_ID: optionalText.meta({
      description:
        'Register the slash commands to this server only (instant; for development). With ' +
        '`WEB_AUTH=discord`, web sign-in admits only members of this server.',
      unset: 'global commands; sign-in admits members of the servers the bot is in',
    }),
    DISCORD_API_URL: url('https://discord.com/api').describe('Discord REST base URL.'),
    DISCORD_COMPONENTS_V2: bool(true).describe(
      'Components v2 where it reads better: the single steps message (`/settings steps inline`, DMs, `/ask` ' +
        'without a thread) as one card within Discord’s 40 components and 4,000 characters, approval prompts ' +
        'as a card with the arguments and buttons. `false`: classic text messages.',
    ),
    DISCORD_SHARD_COUNT: int(1).describe(
      'Gateway shards (one per 2,500 servers). With Postgres, replicas share them: each shard is held by ' +
        'one replica at a time, and another takes it over within seconds when its holder dies.',
    ),
    SLACK_BOT_TOKEN: optionalText.describe(
      'The Slack bot token (`xoxb-…`); setting it enables Slack (docs/slack.md). With `SLACK_APP_TOKEN` it ' +
        'uses Socket Mode, otherwise HTTP mode, which needs `SLACK_SIGNING_SECRET` and serves ' +
        '`POST /slack/events` on `PORT`.',
    ),
    SLACK_SIGNING_SECRET: optionalText.describe(
      'Slack HTTP mode: verifies the requests to `POST /slack/events`.',
    ),
    SLACK_APP_TOKEN: optionalText.describe(
      'The app-level token (`xapp-…`): selects Socket Mode (no public URL needed).',
    ),
    SLACK_API_URL: url('https://slack.com/api/').describe('Slack Web API base URL.'),
    SLACK_TEAM_ID: optionalText
      .pipe(
        z
          .string()
          .regex(/^[TE][A-Z0-9]+$/, 'must be a team (T…) or Enterprise Grid (E…) ID')
          .optional(),
      )
      .meta({
        description:
          'The workspace (`T…`) or Enterprise Grid organization (`E…`) web sign-in admits (`WEB_AUTH=slack`); ' +
          'required for a web-only deployment (sign-in without a bot token).',
        unset: 'the team of `SLACK_BOT_TOKEN`',
      }),
    SLACK_ASK_COMMAND: slashCommand('/ask').describe(
      'Name of the slash command that asks a question (for workspaces where a name clashes).',
    ),
    SLACK_KNOWLEDGE_COMMAND: slashCommand('/knowledge').describe(
      'Name of the slash command that lists or forgets the files shared in a channel.',
    ),
    SLACK_RESET_COMMAND: slashCommand('/reset').describe(
      "Name of the slash command that forgets a channel's memory.",
    ),
    SLACK_MEMORY_COMMAND: slashCommand('/memory').describe(
      'Name of the slash command that shows what is remembered, and the notes.',
    ),
    SLACK_USAGE_COMMAND: slashCommand('/usage').describe(
      'Name of the slash command that shows what was spent.',
    ),
    SLACK_TOOLS_COMMAND: slashCommand('/tools').describe('Name of the slash command that lists the tools.'),
    SLACK_SETTINGS_COMMAND: slashCommand('/settings').describe(
      "Name of the slash command that shows or changes a channel's settings.",
    ),
    SLACK_SCHEDULE_COMMAND: slashCommand('/schedule').describe(
      'Name of the slash command that lists, adds and cancels schedules.',
    ),
    SLACK_STREAMING: z
      .enum(['native', 'edit'])
      .default('native')
      .describe(
        "How answers appear: `native` streams into a reply in the question's thread with the steps as task " +
          'cards; `edit` posts an answer message and edits it, with the steps in its thread.',
      ),
    SLACK_TASK_DISPLAY: z
      .enum(['timeline', 'plan'])
      .default('timeline')
      .describe('Native streaming shows the steps as a `timeline`, or as one collapsible `plan`.'),
    SLACK_SUGGESTED_PROMPTS: suggestedPrompts.describe(
      "Up to 4 prompts offered when someone opens the app's DM / agent view, as `title|message;title|message`, " +
        'e.g. `Do some maths|What is 123 * 456 + 789?;Weather|What is the weather in Paris?`.',
    ),
  },
});
