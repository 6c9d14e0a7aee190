import type { FakeMessage, FakeUser } from '../../fakes/discord-server.js';
import { waitUntil } from '../../helpers/wait-until.js';
import type { DiscordBed } from './harness.js';

type Component = { type: number; custom_id?: string; components?: Component[] };

/** Every component of a list, nested ones (a container's rows, a row's buttons) included. */
const nested = (components: Component[]): Component[] =>
  components.flatMap((c) => [c, ...nested(c.components ?? [])]);

/** The custom ids of a message's buttons, in order, also inside a components v2 container. */
export const buttonIds = (message: FakeMessage): string[] =>
  nested((message.components ?? []) as Component[])
    .filter((c) => c.type === 2 && c.custom_id !== undefined)
    .map((c) => c.custom_id!);

/** Asks as `author` without waiting for the answer; resolves with the reply and the approval message in its thread. */
export async function askForApproval(b: DiscordBed, text = 'echo it', author: FakeUser = b.alice) {
  const question = b.discord.sendMessage({
    channelId: b.discord.channelId,
    author,
    content: `<@${b.discord.bot.id}> ${text}`,
    mentions: [b.discord.bot],
  });
  let reply: FakeMessage | undefined;
  let approval: FakeMessage | undefined;
  await waitUntil(
    () => {
      reply = b.discord
        .messages(b.discord.channelId)
        .find((m) => m.message_reference?.message_id === question.id);
      approval = reply && b.discord.messages(reply.id).find((m) => buttonIds(m).length >= 2);
      return approval !== undefined;
    },
    { what: 'the approval message in the steps thread' },
  );
  return { question, reply: reply!, approval: approval! };
}

/** Presses a button and resolves with the bot's answer to that press. */
export async function press(
  b: DiscordBed,
  message: FakeMessage,
  customId: string,
  user: FakeUser,
  roles?: string[],
) {
  const { id } = b.discord.pressButton({ message, customId, user, roles });
  await b.discord.waitForCall((c) => c.path.startsWith(`/interactions/${id}/`));
  return b.discord.callbacks.find((c) => c.id === id)!;
}
