import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import type { Assistant } from '../../core/assistant.js';
import { ShutdownAbort } from '../../core/errors.js';
import type { Asker } from '../../core/governance/asker.js';
import { consolePrincipal } from '../../core/governance/principal.js';
import type { Logger } from '../../core/logger.js';
import { type ChannelKnowledge, sharedInto } from '../../knowledge/channel-knowledge.js';
import { formatSettingsOutcome } from '../shared/format-settings.js';
import { formatMemoryReport } from '../shared/format-step.js';
import { formatToolsReport } from '../shared/format-tools.js';
import { formatUsageReport } from '../shared/format-usage.js';
import type { FileLimits } from '../shared/read-file-bytes.js';
import { askAndRender } from '../shared/run-renderer.js';
import { approvalsArgs, parseSettingsText } from '../shared/settings-command.js';
import { stepsShown } from '../shared/steps-shown.js';
import type { PlatformAdapter } from '../types.js';
import { askKeptApprovals, withApprovalPrompts } from './console-approvals.js';
import { createConsoleAttachments } from './console-attach.js';
import { createConsoleRenderer } from './console-renderer.js';
import { consoleSystemRunDelivery } from './console-system-runs.js';
import { createLineFeed } from './line-feed.js';
import { terminalSafe } from './terminal-text.js';

/** The conversation key of the terminal chat. */
export const CONSOLE_KEY = 'console:local';

/** Options of the terminal chat. */
export interface ConsoleChatOptions {
  assistant: Assistant;
  input: Readable;
  output: Writable & { isTTY?: boolean; columns?: number };
  /** Interactive terminal (prompt, colours, live answer) or plain line-by-line mode for pipes. */
  tty: boolean;
  author: string;
  logger: Logger;
  /** Conversation key; defaults to {@link CONSOLE_KEY}. */
  key?: string;
  /** How `/attach` reads a file (ATTACHMENT_MAX_BYTES, DOCUMENT_MAX_BYTES); unset: files cannot be attached. */
  files?: FileLimits | undefined;
  /** Where attached files are kept for this chat's `search_knowledge`; unset: they are not kept. */
  knowledge?: ChannelKnowledge | undefined;
}

/** The terminal chat; `finished` resolves when input ends and the last answer is out. */
export interface ConsoleChat extends PlatformAdapter {
  finished: Promise<void>;
  /**
   * How many questions got no answer (failed, refused, limited or cancelled), commands failed, or lines
   * were unknown commands: non-zero means the process should exit non-zero, so a script can tell.
   */
  readonly failures: number;
  /** How many lines were read: none when standard input ended at once (a container's /dev/null). */
  readonly lines: number;
}

/** The reply to a `/word` that is no command. */
export const UNKNOWN_COMMAND = 'Unknown command; try /help';

const HELP =
  'Commands: /reset forgets this chat, /memory shows what is remembered, /memory notes lists the notes ' +
  '(/memory remember <text>, /memory forget <n>, /memory forget-me), /usage shows what was spent, ' +
  '/tools lists the tools, /settings shows or changes the settings, /schedule list|cancel <id>|add "<when>" ' +
  '<question> manages reminders, /attach <path> sends a file (PDF, Word, PowerPoint, Excel, HTML, Markdown, ' +
  'text, image) with your next question and /detach drops it, /knowledge list|forget <file> the files kept ' +
  'here, /quit exits.';

/** A terminal chat: one message per line; `/reset`, `/memory [notes|remember|forget|forget-me]`, `/usage`, `/tools`, `/settings …`, `/help`, `/quit`. */
export function createConsoleChat(options: ConsoleChatOptions): ConsoleChat {
  const { assistant, output, tty } = options;
  const key = options.key ?? CONSOLE_KEY;
  // Whoever runs the terminal chat runs the bot: never limited, and sees every usage figure.
  const asker: Asker = {
    platform: 'console',
    userId: options.author,
    principal: consolePrincipal(options.author),
    dm: true,
    platformAdmin: true,
  };
  const write = (text: string) => output.write(text);
  const terminal = {
    write,
    tty,
    get columns() {
      return output.columns ?? 80;
    },
  };
  let current: AbortController | undefined;
  let resolveFinished: () => void = () => {};
  const finished = new Promise<void>((resolve) => {
    resolveFinished = resolve;
  });
  let rl: ReturnType<typeof createInterface> | undefined;
  let closed = false;
  const feed = createLineFeed();
  let failures = 0;
  let lines = 0;
  const stopping = new AbortController();
  const attached = options.files ? createConsoleAttachments(options.files) : undefined;

  const prompts = {
    assistant,
    feed,
    write,
    who: { principal: asker.principal, name: options.author, platformAdmin: true },
    stopping: stopping.signal,
  };

  /** Calls kept from when the bot last stopped while one waited: asked about first. */
  async function askKept(): Promise<void> {
    const kept = await assistant.keptApprovals?.(key).catch(() => []);
    if (kept?.length) await askKeptApprovals(kept, prompts, stopping.signal);
  }

  /** Runs a command; a storage failure is reported, and the chat goes on. Its reply may quote others' text. */
  async function command(what: string, run: () => Promise<string>): Promise<boolean> {
    try {
      write(`${terminalSafe(await run())}\n`);
    } catch {
      failures++;
      write(`Error: could not ${what} right now; try again.\n`);
    }
    return true;
  }

  async function handle(line: string): Promise<boolean> {
    const text = line.trim();
    if (!text) return true;
    if (/^\/settings(\s|$)/i.test(text)) {
      const approvals = approvalsArgs(text.slice('/settings'.length));
      if (approvals !== undefined && assistant.approvalsCommand) {
        const run = assistant.approvalsCommand;
        return command('read or change the approvals', () => run(asker, key, approvals));
      }
      const change = parseSettingsText(text.slice('/settings'.length));
      if ('error' in change) {
        write(`${change.error}\n`);
        return true;
      }
      return command('read or save the settings', async () =>
        formatSettingsOutcome(await assistant.settings(asker, key, change)),
      );
    }
    const scheduleArgs = /^\/schedule(?:\s+([\s\S]*))?$/i.exec(text);
    if (scheduleArgs) {
      return command('read or change the schedules', async () =>
        assistant.scheduleCommand
          ? assistant.scheduleCommand({ asker, key, author: options.author }, scheduleArgs[1] ?? '')
          : 'Scheduled questions are not kept by this bot.',
      );
    }
    const knowledgeArgs = /^\/knowledge(?:\s+([\s\S]*))?$/i.exec(text);
    if (knowledgeArgs) {
      return command('read or change the shared files', async () =>
        assistant.knowledgeCommand
          ? assistant.knowledgeCommand(asker, key, knowledgeArgs[1] ?? '')
          : 'No documents or shared files are kept by this bot.',
      );
    }
    const attachArgs = /^\/attach(?:\s+([\s\S]*))?$/i.exec(text);
    if (attachArgs || /^\/detach$/i.test(text)) {
      if (!attached) {
        failures++;
        write('Files cannot be attached here.\n');
        return true;
      }
      if (!attachArgs) write(`${attached.clear()}\n`);
      else if (!attachArgs[1]?.trim()) write(`${attached.list()}\n`);
      else {
        const added = await attached.add(attachArgs[1]);
        if (!added.ok) failures++;
        write(`${terminalSafe(added.reply)}\n`);
      }
      return true;
    }
    const memoryArgs = /^\/memory\s+(\S[\s\S]*)$/i.exec(text)?.[1];
    const memoryRun = memoryArgs !== undefined ? assistant.memoryCommand(asker, key, memoryArgs) : undefined;
    if (memoryRun) return command('read or change the notes', () => memoryRun);
    switch (text.toLowerCase()) {
      case '/quit':
      case '/exit':
        return false;
      case '/help':
        write(`${HELP}\n`);
        return true;
      case '/reset':
        return command('reset the memory of this chat', async () => {
          await assistant.reset(key);
          return 'Memory of this chat (summary, turns, archive and notes) cleared.';
        });
      case '/memory':
        return command('read the memory of this chat', async () =>
          formatMemoryReport(await assistant.memory(key)),
        );
      case '/usage':
        return command('read the usage records', async () =>
          formatUsageReport(await assistant.usage(asker, key)),
        );
      case '/tools':
        return command('list the tools', async () => formatToolsReport(await assistant.toolsIn(key)));
    }
    // `/word …` is a command this chat does not know; `/usr/bin is…` is a question.
    if (/^\/[a-z][\w-]*(\s|$)/i.test(text)) {
      failures++;
      write(`${UNKNOWN_COMMAND}\n`);
      return true;
    }
    current = new AbortController();
    const files = attached?.take() ?? [];
    const view = await askAndRender({
      assistant,
      request: {
        key,
        author: options.author,
        text,
        asker,
        ...(files.length > 0
          ? {
              attachments: sharedInto(
                options.knowledge,
                { scope: key, sharedBy: asker.principal },
                Promise.resolve(files),
              ),
            }
          : {}),
      },
      renderer: withApprovalPrompts(
        createConsoleRenderer(terminal, { showSteps: await stepsShown(assistant, key) }),
        prompts,
      ),
      signal: current.signal,
      abortedBy: 'asker',
      logger: options.logger,
    });
    current = undefined;
    if (view.phase !== 'final') failures++;
    return true;
  }

  return {
    name: 'console',
    finished,
    get failures() {
      return failures;
    },
    get lines() {
      return lines;
    },
    async start() {
      rl = createInterface({ input: options.input, output: tty ? output : undefined, terminal: tty });
      if (tty) {
        write(`thinkthread: ask anything. ${HELP}\n`);
        rl.setPrompt('you › ');
        rl.prompt();
        // Ctrl+C during an answer cancels it; at the prompt it exits.
        rl.on('SIGINT', () => {
          if (current) current.abort();
          else rl?.close();
        });
      }
      rl.on('line', (line) => {
        lines++;
        feed.push(line);
      });
      rl.on('close', () => {
        closed = true;
        feed.push(undefined);
      });
      void (async () => {
        try {
          await askKept();
          // Lines are handled one at a time, in order, even when piped in all at once; while a tool call
          // waits for approval, the next line answers it (see console-approvals.ts).
          for (let line = await feed.next(); line !== undefined; line = await feed.next()) {
            if (!(await handle(line))) break;
            if (tty) rl!.prompt();
          }
        } finally {
          rl?.close();
          resolveFinished();
        }
      })();
    },
    async stop() {
      stopping.abort();
      // The bot stops, not the asker: a call the answer waits on is kept, and asked about at the next start.
      current?.abort(new ShutdownAbort());
      rl?.close();
    },
    readiness: () => ({ ready: true }),
    systemRuns: consoleSystemRunDelivery({
      assistant,
      terminal,
      logger: options.logger,
      signal: stopping.signal,
      withPrompts: (renderer) => withApprovalPrompts(renderer, prompts),
      // Not while a typed question is answered: its own end puts the prompt back.
      redrawPrompt: () => {
        if (tty && rl && !closed && !current) rl.prompt(true);
      },
    }),
  };
}
