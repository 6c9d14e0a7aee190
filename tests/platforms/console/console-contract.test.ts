import { PassThrough } from 'node:stream';
import { createLogger } from '../../../src/core/logger.js';
import { type ConsoleChat, createConsoleChat } from '../../../src/platforms/console/console-chat.js';
import { type AdapterHarness, adapterContract, CONSOLE_ASKER } from '../../contract/adapter-contract.js';
import { startTestCore } from '../../helpers/test-core.js';
import { waitUntil } from '../../helpers/wait-until.js';

/** Drives the real terminal chat through in-memory stdin/stdout streams, one chat per conversation. */
async function consoleHarness(env: Record<string, string> = {}): Promise<AdapterHarness> {
  const test = await startTestCore(env);
  const chats = new Map<string, { chat: ConsoleChat; input: PassThrough; output: () => string }>();

  const chatFor = async (conversation: string) => {
    let entry = chats.get(conversation);
    if (!entry) {
      const input = new PassThrough();
      const output = new PassThrough();
      let text = '';
      output.on('data', (d: Buffer) => {
        text += d.toString('utf8');
      });
      const chat = createConsoleChat({
        assistant: test.core.assistant,
        input,
        output,
        tty: false,
        author: CONSOLE_ASKER,
        logger: createLogger({ level: 'silent', secrets: [] }),
        key: `console:${conversation}`,
      });
      await chat.start();
      entry = { chat, input, output: () => text };
      chats.set(conversation, entry);
    }
    return entry;
  };

  /** Sends one line and waits until the chat has printed a new line matching `done`. */
  const send = async (conversation: string, line: string, done: RegExp): Promise<string> => {
    const entry = await chatFor(conversation);
    const before = entry.output().length;
    entry.input.write(`${line}\n`);
    await waitUntil(() => done.test(entry.output().slice(before)), {
      timeoutMs: 20_000,
      what: () => `the chat to print ${done} after "${line}"; it printed: ${entry.output().slice(before)}`,
    });
    return entry.output().slice(before);
  };

  return {
    model: test.fake,
    async ask(text, conversation = 'a') {
      const fresh = await send(conversation, text, /^(Answer|Error): .*\n/m);
      const lines = fresh.trimEnd().split('\n');
      const answerAt = lines.findIndex((l) => /^(Answer|Error): /.test(l));
      return {
        answer: lines
          .slice(answerAt)
          .join('\n')
          .replace(/^(Answer|Error): /, ''),
        steps: lines.slice(0, answerAt).join('\n'),
      };
    },
    reset: (conversation = 'a') => send(conversation, '/reset', /cleared\.\n/),
    memory: (conversation = 'a') => send(conversation, '/memory', /^Summary: .*\n/m),
    // The terminal's user is an admin, so the report ends with the top lists; it is written in one piece.
    usage: (conversation = 'a') => send(conversation, '/usage', /^Top channels this month.*\n/m),
    // Written in one piece, so once its first line is out, all of it is.
    tools: (conversation = 'a') => send(conversation, '/tools', /^Built-in: .*\n/m),
    async close() {
      for (const { chat, input } of chats.values()) {
        input.end();
        await chat.finished;
      }
      await test.close();
    },
  };
}

adapterContract('console', consoleHarness, { limitable: false });
