import type { App, RespondFn } from '@slack/bolt';
import type { Config } from '../../config.js';
import { formatSettingsOutcome } from '../shared/format-settings.js';
import { cut, formatMemoryReport } from '../shared/format-step.js';
import { formatToolsReport } from '../shared/format-tools.js';
import { formatUsageReport } from '../shared/format-usage.js';
import { approvalsArgs, parseSettingsText } from '../shared/settings-command.js';
import { WORDING } from '../shared/wording.js';
import { slackAsker } from './asker.js';
import { conversationKey } from './conversation-key.js';
import type { IntakeDeps } from './intake.js';
import { CONTEXT_CHARS } from './limits.js';
import { slackMemoryArgs, slackMemoryUsage } from './memory-command.js';
import { plainToMrkdwn } from './mrkdwn.js';
import { runQuestion } from './run-question.js';
import { registerScheduleCommand } from './schedule-command.js';
import { questionFromSlack } from './slack-text.js';

type CommandNames = Pick<
  Config,
  | 'SLACK_ASK_COMMAND'
  | 'SLACK_RESET_COMMAND'
  | 'SLACK_MEMORY_COMMAND'
  | 'SLACK_USAGE_COMMAND'
  | 'SLACK_TOOLS_COMMAND'
  | 'SLACK_SETTINGS_COMMAND'
  | 'SLACK_SCHEDULE_COMMAND'
  | 'SLACK_KNOWLEDGE_COMMAND'
>;

/**
 * The slash commands. Each is acknowledged at once (Slack gives 3 seconds); the work runs afterwards.
 * `/reset`, `/memory [notes|remember …|forget <n>|forget-me …]`, `/usage`, `/tools` and `/settings` answer only the caller (ephemeral, via the
 * command's response_url).
 */
export function registerCommands(app: App, names: CommandNames, deps: IntakeDeps): void {
  const { assistant, work, logger } = deps;
  const ephemeral = (respond: RespondFn, text: string) =>
    respond({ response_type: 'ephemeral', text }).catch((err: unknown) =>
      logger.warn({ err }, 'could not answer a slash command'),
    );

  app.command(names.SLACK_ASK_COMMAND, async ({ command, ack, respond, client, context }) => {
    const text = questionFromSlack(command.text, context.botUserId);
    if (!text) {
      await ack({
        response_type: 'ephemeral',
        text: plainToMrkdwn(`Usage: ${names.SLACK_ASK_COMMAND} <your question>`),
      });
      return;
    }
    await ack();
    const team = context.teamId ?? command.team_id;
    // Nobody else sees the command, so the answer says who asked what. `<@U…>` shows the asker's name.
    const asked = `<@${command.user_id}> asked: ${plainToMrkdwn(cut(text, CONTEXT_CHARS).text)}`;
    const key = conversationKey(team, command.channel_id);
    const asker = slackAsker(deps.users, client, command.user_id, command.team_id, command.channel_id);
    work.run('a Slack /ask', async (signal) => {
      // Its place in the channel's line, taken now; and where its answer is, should this replica die.
      const arrival = await deps.line
        .arrive(key, 'slack', [`slack:command:${command.trigger_id}`])
        .catch((err: unknown) => {
          logger.error({ err }, 'could not admit a Slack command');
          return null;
        });
      if (arrival === null) {
        await ephemeral(respond, WORDING.storageUnavailable);
        return;
      }
      const access = await assistant.access(asker.asker, key).catch((err: unknown) => {
        arrival?.leave();
        throw err;
      });
      if (!access.allowed) {
        arrival?.leave();
        await ephemeral(respond, access.message);
        return;
      }
      const delivered = await runQuestion(
        deps,
        client,
        {
          key,
          userId: command.user_id,
          teamId: team,
          text,
          place: { channel: command.channel_id },
          layout: 'channel',
          context: asked,
          asker,
          arrival,
        },
        signal,
      );
      if (!delivered) {
        await ephemeral(respond, WORDING.notInChannel);
      }
    });
  });

  registerScheduleCommand(app, names.SLACK_SCHEDULE_COMMAND, deps);

  app.command(names.SLACK_RESET_COMMAND, async ({ command, ack, respond, context }) => {
    await ack();
    const key = conversationKey(context.teamId ?? command.team_id, command.channel_id);
    work.run('a Slack /reset', async () => {
      try {
        await assistant.reset(key);
        await ephemeral(respond, 'Done: I have forgotten our conversation in this channel.');
      } catch (err) {
        logger.error({ key, err }, 'reset failed');
        await ephemeral(respond, 'Sorry, I could not reset my memory of this channel; try again shortly.');
      }
    });
  });

  app.command(names.SLACK_MEMORY_COMMAND, async ({ command, ack, respond, client, context }) => {
    await ack();
    const key = conversationKey(context.teamId ?? command.team_id, command.channel_id);
    const args = slackMemoryArgs(command.text ?? '', command.team_id);
    if (args !== undefined) {
      const asker = slackAsker(deps.users, client, command.user_id, command.team_id, command.channel_id);
      work.run('a Slack /memory command', async () => {
        try {
          const run = assistant.memoryCommand(asker.asker, key, args);
          const reply = run ? await run : slackMemoryUsage(names.SLACK_MEMORY_COMMAND);
          await ephemeral(respond, plainToMrkdwn(reply));
        } catch (err) {
          logger.error({ key, err }, 'memory command failed');
          await ephemeral(respond, plainToMrkdwn(WORDING.commandFailed));
        }
      });
      return;
    }
    work.run('a Slack /memory', async () => {
      try {
        const report = formatMemoryReport(await assistant.memory(key));
        await ephemeral(respond, `*What I remember of this channel*\n${plainToMrkdwn(report)}`);
      } catch (err) {
        logger.error({ key, err }, 'memory report failed');
        await ephemeral(respond, 'Sorry, I could not read my memory of this channel; try again shortly.');
      }
    });
  });

  app.command(names.SLACK_USAGE_COMMAND, async ({ command, ack, respond, client, context }) => {
    await ack();
    const key = conversationKey(context.teamId ?? command.team_id, command.channel_id);
    const asker = slackAsker(deps.users, client, command.user_id, command.team_id, command.channel_id);
    work.run('a Slack /usage', async () => {
      try {
        const report = formatUsageReport(await assistant.usage(asker.asker, key));
        await ephemeral(respond, `*Usage*\n${plainToMrkdwn(report)}`);
      } catch (err) {
        logger.error({ key, err }, 'usage report failed');
        await ephemeral(respond, 'Sorry, I could not read the usage records; try again shortly.');
      }
    });
  });

  app.command(names.SLACK_TOOLS_COMMAND, async ({ command, ack, respond, context }) => {
    await ack();
    const key = conversationKey(context.teamId ?? command.team_id, command.channel_id);
    work.run('a Slack /tools', async () => {
      try {
        const report = formatToolsReport(await assistant.toolsIn(key));
        await ephemeral(respond, `*Tools*\n${plainToMrkdwn(report)}`);
      } catch (err) {
        logger.error({ err }, 'tools report failed');
        await ephemeral(respond, 'Sorry, I could not list my tools; try again shortly.');
      }
    });
  });

  app.command(names.SLACK_KNOWLEDGE_COMMAND, async ({ command, ack, respond, client, context }) => {
    await ack();
    const key = conversationKey(context.teamId ?? command.team_id, command.channel_id);
    const asker = slackAsker(deps.users, client, command.user_id, command.team_id, command.channel_id);
    work.run('a Slack /knowledge', async () => {
      const run = assistant.knowledgeCommand;
      if (!run) {
        await ephemeral(respond, 'No documents or shared files are kept by this bot.');
        return;
      }
      try {
        await ephemeral(respond, plainToMrkdwn(await run(asker.asker, key, command.text)));
      } catch (err) {
        logger.error({ key, err }, 'knowledge command failed');
        await ephemeral(respond, 'Sorry, I could not read or change the shared files; try again shortly.');
      }
    });
  });

  app.command(names.SLACK_SETTINGS_COMMAND, async ({ command, ack, respond, client, context }) => {
    await ack();
    const key = conversationKey(context.teamId ?? command.team_id, command.channel_id);
    const asker = slackAsker(deps.users, client, command.user_id, command.team_id, command.channel_id);
    work.run('a Slack /settings', async () => {
      const approvals = approvalsArgs(command.text);
      if (approvals !== undefined && assistant.approvalsCommand) {
        try {
          await ephemeral(
            respond,
            plainToMrkdwn(await assistant.approvalsCommand(asker.asker, key, approvals)),
          );
        } catch (err) {
          logger.error({ key, err }, 'approvals command failed');
          await ephemeral(respond, 'Sorry, I could not read or change the approvals; try again shortly.');
        }
        return;
      }
      const change = parseSettingsText(command.text);
      if ('error' in change) {
        await ephemeral(respond, plainToMrkdwn(change.error));
        return;
      }
      try {
        const outcome = await assistant.settings(asker.asker, key, change);
        await ephemeral(respond, plainToMrkdwn(formatSettingsOutcome(outcome)));
      } catch (err) {
        logger.error({ key, err }, 'settings command failed');
        await ephemeral(respond, 'Sorry, I could not read or save the settings; try again shortly.');
      }
    });
  });
}
