import type { Assistant } from '../../core/assistant.js';
import type { Asker } from '../../core/governance/asker.js';
import { principalLabel } from '../../core/governance/principal.js';
import type { Logger } from '../../core/logger.js';
import type { WebChatStore } from '../../core/ports/web-chat-store.js';
import { formatSettingsOutcome } from '../shared/format-settings.js';
import { formatMemoryReport } from '../shared/format-step.js';
import { formatToolsReport } from '../shared/format-tools.js';
import { formatUsageReport } from '../shared/format-usage.js';
import { approvalsArgs, parseSettingsText } from '../shared/settings-command.js';
import { WORDING } from '../shared/wording.js';

/** What `/help` says. */
export const HELP =
  'Commands: /reset forgets this chat, /memory shows what is remembered, /memory notes lists the notes ' +
  '(/memory remember <text>, /memory forget <n>, /memory forget-me), /usage shows what was spent, ' +
  '/tools lists the tools in force, /settings shows or changes the settings (admins), ' +
  '/schedule list|cancel <id>|add "<when>" <question> manages reminders and recurring questions, ' +
  '/knowledge list|forget <file> the documents kept here. ' +
  '“Attach” (or a file dropped or pasted) sends a document or image with the question. ' +
  '“New chat” starts another conversation.';

/** The reply to a `/word` that is no command. */
export const UNKNOWN_COMMAND = 'Unknown command; try /help';

/** Whether `text` reads as a command (`/word …`) rather than a question (`/usr/bin is…` is a question). */
export function looksLikeCommand(text: string): boolean {
  return /^\/[a-z][\w-]*(\s|$)/i.test(text.trim());
}

/** The confirmation of `/reset`. */
export const RESET_DONE = 'Memory of this chat (summary, turns, archive and notes) cleared.';

/** A command's reply; `cleared` when the conversation was forgotten. */
export interface CommandReply {
  reply: string;
  cleared?: boolean;
}

/** What a command works on. */
export interface CommandContext {
  assistant: Assistant;
  asker: Asker;
  key: string;
  logger: Logger;
  /** The kept answers and steps of the web chat's conversations, cleared with the memory they show. */
  chats?: WebChatStore | undefined;
  /** The signed-in name; a browser without sign-in is named by {@link principalLabel}. */
  name?: string | undefined;
}

/**
 * Runs `/reset`, `/memory [notes|remember|forget|forget-me]`, `/usage`, `/tools`, `/settings …` or `/help`;
 * any other `/word` is answered {@link UNKNOWN_COMMAND}. Undefined when `text` is a question, not a command.
 */
export async function runCommand(text: string, ctx: CommandContext): Promise<CommandReply | undefined> {
  const { assistant, key } = ctx;
  const attempt = async (run: () => Promise<CommandReply>): Promise<CommandReply> => {
    try {
      return await run();
    } catch (err) {
      ctx.logger.error({ err, key }, 'a web chat command failed');
      return { reply: WORDING.commandFailed };
    }
  };
  if (/^\/settings(\s|$)/i.test(text.trim())) {
    const approvals = approvalsArgs(text.trim().slice('/settings'.length));
    const decide = assistant.approvalsCommand;
    if (approvals !== undefined && decide) {
      return attempt(async () => ({ reply: await decide(ctx.asker, key, approvals) }));
    }
    const change = parseSettingsText(text.trim().slice('/settings'.length));
    if ('error' in change) return { reply: change.error };
    return attempt(async () => ({
      reply: formatSettingsOutcome(await assistant.settings(ctx.asker, key, change)),
    }));
  }
  const scheduleArgs = /^\/schedule(?:\s+([\s\S]*))?$/i.exec(text.trim());
  if (scheduleArgs) {
    const run = assistant.scheduleCommand;
    if (!run) return { reply: 'Scheduled questions are not kept by this bot.' };
    return attempt(async () => ({
      reply: await run(
        { asker: ctx.asker, key, author: ctx.name ?? principalLabel(ctx.asker.principal) },
        scheduleArgs[1] ?? '',
      ),
    }));
  }
  const knowledgeArgs = /^\/knowledge(?:\s+([\s\S]*))?$/i.exec(text.trim());
  if (knowledgeArgs) {
    const run = assistant.knowledgeCommand;
    if (!run) return { reply: 'No documents or shared files are kept by this bot.' };
    return attempt(async () => ({ reply: await run(ctx.asker, key, knowledgeArgs[1] ?? '') }));
  }
  const memoryArgs = /^\/memory\s+(\S[\s\S]*)$/i.exec(text.trim())?.[1];
  if (memoryArgs !== undefined) {
    const run = assistant.memoryCommand(ctx.asker, key, memoryArgs);
    if (run) {
      // Forget-me forgets the person's web chats in the store itself, and its reply counts them.
      return attempt(async () => ({ reply: await run }));
    }
  }
  switch (text.trim().toLowerCase()) {
    case '/help':
      return { reply: HELP };
    case '/reset':
      return attempt(async () => {
        await assistant.reset(key);
        await ctx.chats?.clearWebChatRuns(key);
        return { reply: RESET_DONE, cleared: true };
      });
    case '/memory':
      return attempt(async () => ({ reply: formatMemoryReport(await assistant.memory(key)) }));
    case '/usage':
      return attempt(async () => ({ reply: formatUsageReport(await assistant.usage(ctx.asker, key)) }));
    case '/tools':
      return attempt(async () => ({ reply: formatToolsReport(await assistant.toolsIn(key)) }));
    default:
      return looksLikeCommand(text) ? { reply: UNKNOWN_COMMAND } : undefined;
  }
}
