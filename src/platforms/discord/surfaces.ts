import {
  type APIMessage,
  type APIThreadChannel,
  type ChatInputCommandInteraction,
  DiscordAPIError,
  type Message,
  MessageFlags,
  Routes,
  ThreadAutoArchiveDuration,
} from 'discord.js';
import type { Logger } from '../../core/logger.js';
import type { ButtonRow } from './buttons.js';
import { NO_PINGS } from './limits.js';
import type { AnswerSurface } from './render.js';
import type { Card } from './steps-card.js';

/**
 * How long `/ask` writes through its interaction's token. Discord refuses the token 15 minutes after the
 * command (401, 50027 Invalid Webhook Token); a minute is kept in hand for writes in flight and clock skew.
 */
export const TOKEN_USE_MS = 14 * 60_000;

/** A slash command's "continued below" note on its response, once the answer moves to a channel message. */
export const CONTINUED_BELOW = '-# ⬇️ continued below';

/** Discord refused the interaction's token (401, 50027 Invalid Webhook Token): nothing more goes through it. */
function tokenRefused(err: unknown): boolean {
  return err instanceof DiscordAPIError && (err.status === 401 || err.code === 50027);
}

/**
 * A deferred slash command's response: edited with the answer, overflow and the steps message as
 * follow-ups, all through the interaction's token while it is young. An answer that outlives
 * {@link TOKEN_USE_MS} (a long wait in the channel's line plus a long run) goes on as ordinary channel
 * messages with the bot's own token: the answer in a message replying to the response, which is marked
 * "continued below" if the token still allows it; overflow and a new steps message in the channel. The
 * move is made at {@link TOKEN_USE_MS} even when nothing is being written then (a question still waiting
 * in its channel's line), so the response does not stay "Thinking…" for good; `close()` ends that watch.
 * Discord may refuse the token sooner (clock skew, a token revoked): the write it refused, and every one
 * after it, then goes the same way at once, whatever the clock says.
 */
export function interactionSurface(
  interaction: ChatInputCommandInteraction,
  options: {
    threads: boolean;
    now: () => number;
    logger?: Logger;
    /**
     * Where the bot is not a member (a user install in a server without the bot, a group DM): nothing is
     * posted with the bot's token, the token is used until Discord refuses it, and at most `followUps`
     * follow-ups are sent (see install-place.ts).
     */
    interactionOnly?: { followUps: number } | undefined;
  },
): AnswerSurface & { close(): void } {
  const { rest } = interaction.client;
  const { channelId } = interaction;
  const only = options.interactionOnly;
  const age = () => options.now() - interaction.createdTimestamp;
  /** Discord refused the token once: it is never tried again. */
  let refused = false;
  /** Whether writes still go through the token: it is young (or the only way), and Discord has not refused it. */
  const usable = () => !refused && (only !== undefined || age() < TOKEN_USE_MS);
  let followUps = 0;
  /** Counts a follow-up about to be sent; refuses one past what Discord allows here. */
  const countFollowUp = () => {
    if (only && followUps >= only.followUps)
      throw new Error(
        `Discord allows ${only.followUps} follow-ups to a command of a user-installed app here`,
      );
    followUps++;
  };
  let responseId: string | undefined;
  /** The buttons last put under the answer, carried over to the channel message. */
  let shownButtons: ButtonRow[] | undefined;
  /** The channel message the answer continues in, once the token is too old or refused. */
  let continued: Promise<string> | undefined;
  /** The answer's text as last shown, for a move made while nothing is written. */
  let shownText: string | undefined;

  const sendInChannel = async (body: Record<string, unknown>) =>
    ((await rest.post(Routes.channelMessages(channelId), { body })) as APIMessage).id;
  const editInChannel = (id: string, body: Record<string, unknown>) =>
    rest.patch(Routes.channelMessage(channelId, id), { body });
  const rowsJson = (rows: ButtonRow[] | undefined) => (rows === undefined ? {} : { components: rows });

  /** A write through the token; when Discord refuses the token, what `instead` does (nothing was written). */
  const throughToken = async <T>(write: () => Promise<T>, instead: () => Promise<T>): Promise<T> => {
    try {
      return await write();
    } catch (err) {
      if (!tokenRefused(err)) throw err;
      if (!refused)
        options.logger?.warn(
          { err },
          only
            ? 'Discord refused the interaction token; the bot is not in this channel, so nothing more can be shown'
            : 'Discord refused the interaction token; going on in the channel',
        );
      refused = true;
      return instead();
    }
  };
  const nothing = async () => undefined;

  /** Posts the answer's channel message, replying to the response, and marks the response if it still can. */
  const moveToChannel = async (text: string, buttons: ButtonRow[] | undefined): Promise<string> => {
    const id = await sendInChannel({
      content: text,
      allowed_mentions: { parse: [] },
      ...rowsJson(buttons ?? shownButtons),
      ...(responseId ? { message_reference: { message_id: responseId, fail_if_not_exists: false } } : {}),
    });
    if (!refused && age() < TOKEN_USE_MS + 30_000) {
      await throughToken(
        () => interaction.editReply({ content: CONTINUED_BELOW, components: [], allowedMentions: NO_PINGS }),
        nothing,
      ).catch(() => undefined); // only cosmetic: the answer is already below
    }
    return id;
  };

  const move = (text: string, buttons: ButtonRow[] | undefined) => {
    continued = moveToChannel(text, buttons);
    continued.catch(() => {
      continued = undefined; // tried again on the next edit
    });
    return continued;
  };
  const watch = setTimeout(
    () => {
      if (only || continued || shownText === undefined) return;
      move(shownText, undefined).catch((err: unknown) =>
        options.logger?.warn({ err }, 'could not move the answer out of the aging interaction'),
      );
    },
    Math.max(0, TOKEN_USE_MS - age()),
  );
  watch.unref();

  return {
    close: () => clearTimeout(watch),
    async edit(text, buttons) {
      if (buttons) shownButtons = buttons;
      shownText = text;
      if (usable() && !continued) {
        const message = await throughToken(
          () =>
            interaction.editReply({
              content: text,
              allowedMentions: NO_PINGS,
              ...(buttons ? { components: buttons } : {}),
            }),
          nothing,
        );
        if (message) {
          responseId = message.id;
          return;
        }
      }
      if (only) return; // not a member here: the bot's token cannot post in this channel
      if (!continued) {
        await move(text, buttons);
        return;
      }
      await editInChannel(await continued, {
        content: text,
        allowed_mentions: { parse: [] },
        ...rowsJson(buttons),
      });
    },
    async followUp(text) {
      const inChannel = async () =>
        only ? undefined : void (await sendInChannel({ content: text, allowed_mentions: { parse: [] } }));
      if (!usable()) return inChannel();
      countFollowUp();
      await throughToken(
        async () => void (await interaction.followUp({ content: text, allowedMentions: NO_PINGS })),
        inChannel,
      );
    },
    async post(text, buttons) {
      const edit = await postEditable([text, buttons] as const, classicBody);
      return (next, rows) => edit([next, rows]);
    },
    postCard: (card) => postEditable(card, cardBody),
    openThread: options.threads
      ? async (name) => {
          // Plain REST by ids: the response message need not be in discord.js's cache.
          responseId ??= usable()
            ? await throughToken(async () => (await interaction.fetchReply()).id, nothing)
            : undefined;
          if (!responseId)
            throw new Error('the response is unknown and its token too old or refused to fetch it');
          const thread = (await rest.post(Routes.threads(channelId, responseId), {
            body: { name, auto_archive_duration: ThreadAutoArchiveDuration.OneDay },
          })) as APIThreadChannel;
          const inThread = async <T>(first: T, body: (value: T) => Body) => {
            const message = (await rest.post(Routes.channelMessages(thread.id), {
              body: restJson(body(first)),
            })) as APIMessage;
            return async (next: T) => {
              await rest.patch(Routes.channelMessage(thread.id, message.id), {
                body: restJson(edited(body(next))),
              });
            };
          };
          return {
            async post(text, buttons) {
              const edit = await inThread([text, buttons] as const, classicBody);
              return (next, rows) => edit([next, rows]);
            },
            postCard: (card) => inThread(card, cardBody),
          };
        }
      : undefined,
  };

  /**
   * Posts a message edited later: a follow-up while the token is usable, else (where the bot is a member) a
   * channel message; resolves with the function that edits it.
   */
  async function postEditable<T>(first: T, body: (value: T) => Body) {
    const inChannel = async () =>
      only ? async (_next: T) => {} : channelEditable(await sendInChannel(restJson(body(first))), body);
    if (!usable()) return inChannel();
    countFollowUp();
    return throughToken(async () => {
      const message = await interaction.followUp({ ...body(first), allowedMentions: NO_PINGS });
      return followUpEditable(message, body);
    }, inChannel);
  }

  function channelEditable<T>(id: string, body: (value: T) => Body) {
    return async (next: T) => {
      await editInChannel(id, restJson(edited(body(next))));
    };
  }

  /** Edits a follow-up through the token while it lasts; after, it goes on in a new channel message. */
  function followUpEditable<T>(message: Message, body: (value: T) => Body) {
    let moved: ((next: T) => Promise<void>) | undefined;
    // A follow-up is the webhook's message: the bot's token cannot edit it, so the steps go on below.
    const moveOn = async (next: T) => {
      if (only) return;
      moved = channelEditable(await sendInChannel(restJson(body(next))), body);
    };
    return async (next: T) => {
      if (moved) return moved(next);
      if (!usable()) return moveOn(next);
      await throughToken(
        async () =>
          void (await interaction.editReply({ message, ...edited(body(next)), allowedMentions: NO_PINGS })),
        () => moveOn(next),
      );
    };
  }
}

/** A message's body, as discord.js's options and (with `allowed_mentions`) as REST JSON take it. */
interface Body {
  content?: string;
  components?: (ButtonRow | Card)[];
  flags?: number;
}

/** A classic message: text, and its buttons when given (an edit without them keeps those shown). */
const classicBody = ([content, rows]: readonly [string, ButtonRow[] | undefined]): Body => ({
  content,
  ...(rows ? { components: rows } : {}),
});

/** A components v2 message: one card, with the IS_COMPONENTS_V2 flag. */
const cardBody = (card: Card): Body => ({ components: [card], flags: MessageFlags.IsComponentsV2 });

/** An edit's body: a message's flags stay as they were sent (IS_COMPONENTS_V2 cannot be removed). */
const edited = ({ flags: _flags, ...body }: Body): Body => body;

/** As REST JSON, never pinging anyone. */
const restJson = (body: Body) => ({ ...body, allowed_mentions: { parse: [] } });
