import type { App } from '@slack/bolt';
import { WORDING } from '../shared/wording.js';
import { slackAsker } from './asker.js';
import { conversationKey } from './conversation-key.js';
import type { IntakeDeps } from './intake.js';
import { plainToMrkdwn } from './mrkdwn.js';

/**
 * `/schedule list|cancel <id>|add "<when>" <question>` (SLACK_SCHEDULE_COMMAND): acknowledged at once, then
 * answered to the caller only, through the assistant.
 */
export function registerScheduleCommand(app: App, name: string, deps: IntakeDeps): void {
  const { assistant, work, logger } = deps;
  app.command(name, async ({ command, ack, respond, client, context }) => {
    await ack();
    const key = conversationKey(context.teamId ?? command.team_id, command.channel_id);
    const asker = slackAsker(deps.users, client, command.user_id, command.team_id, command.channel_id);
    work.run('a Slack /schedule', async () => {
      let reply: string;
      try {
        reply = assistant.scheduleCommand
          ? await assistant.scheduleCommand(
              { asker: asker.asker, key, author: (await asker.user()).name },
              command.text ?? '',
            )
          : 'Scheduled questions are not kept by this bot.';
      } catch (err) {
        logger.error({ key, err }, 'schedule command failed');
        reply = WORDING.commandFailed;
      }
      await respond({
        response_type: 'ephemeral',
        text: plainToMrkdwn(reply.replaceAll('/schedule', name)),
      }).catch((err: unknown) => logger.warn({ err }, 'could not answer a slash command'));
    });
  });
}
