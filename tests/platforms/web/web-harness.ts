import { createLogger } from '../../../src/core/logger.js';
import { UPLOAD_HEADER } from '../../../src/platforms/web/ask-body.js';
import { createWebAdapter, type WebAdapter } from '../../../src/platforms/web/create-web-adapter.js';
import type { WebRun } from '../../../src/platforms/web/web-run.js';
import { createHttpServer } from '../../../src/server/http-server.js';
import type { FakeOpenAIOptions } from '../../fakes/openai-server.js';
import { startTestCore, type TestCore } from '../../helpers/test-core.js';
import { type EventFeed, type Reply, WebClient } from './web-client.js';

/** A WEB_CHAT_TOKEN long enough for start-up (24+ characters). */
export const TOKEN = 'correct-horse-battery-staple-42';

/** The real core, the shared HTTP server on a free loopback port, and the web adapter on it. */
export interface WebBed {
  test: TestCore;
  adapter: WebAdapter;
  /** `http://127.0.0.1:<port>/` */
  url: string;
  close(): Promise<void>;
}

/** Starts a bed; `env` adds settings (strings, as in .env), `fake` configures the scripted model. */
export async function startWebBed(
  env: Record<string, string> = {},
  fake: FakeOpenAIOptions = {},
  /**
   * `schedules` keeps scheduled questions (the core's scheduler is left for the test to start); `approvals`
   * sets how waiting tool calls are looked after (see startTestCore).
   */
  options: {
    now?: () => number;
    port?: number;
    schedules?: boolean;
    approvals?: { beatMs?: number; staleMs?: number };
    /** Another bed's DATABASE_URL, to share its store as replicas do. */
    databaseUrl?: string;
  } = {},
): Promise<WebBed> {
  const test = await startTestCore({ WEB_CHAT: 'true', ...env }, fake, {
    ...(options.databaseUrl ? { databaseUrl: options.databaseUrl } : {}),
    ...(options.schedules ? { schedules: { now: options.now } } : {}),
    ...(options.approvals ? { approvals: options.approvals } : {}),
  });
  const logger = createLogger({ level: 'silent', secrets: [] });
  const http = createHttpServer({ logger, readiness: () => [] });
  const adapter = createWebAdapter(
    {
      config: test.config,
      assistant: test.core.assistant,
      logger,
      http,
      knowledgeBase: test.knowledge.indexer,
      knowledge: test.knowledge.channel,
    },
    {
      announce: () => {},
      // As the app does: the conversations in the bot's own store.
      chats: test.store,
      ...(options.now ? { now: options.now } : {}),
    },
  );
  const port = await http.listen(options.port ?? 0, '127.0.0.1');
  await adapter.start();
  let closed: Promise<void> | undefined;
  return {
    test,
    adapter,
    url: `http://127.0.0.1:${port}/`,
    close: () => {
      closed ??= (async () => {
        await adapter.stop();
        await http.close();
        await test.close();
      })();
      return closed;
    },
  };
}

/** A browser talking to a bed: its cookies, its event stream, and helpers to ask and read runs. */
export class WebUser {
  readonly client: WebClient;
  private feed: EventFeed | undefined;
  constructor(url: string, browserId?: string) {
    this.client = new WebClient(url);
    if (browserId) this.client.cookies.set('tt_browser', browserId);
  }

  /** The open event stream (opened on first use). */
  async stream(): Promise<EventFeed> {
    this.feed ??= await this.client.events();
    return this.feed;
  }

  /** Asks `text` and resolves with the run once it has ended. */
  ask(text: string): Promise<WebRun> {
    return this.ended(() => this.client.request('/api/ask', { text }));
  }

  /** Asks with a file, as the page does (a form with `text` and `file`), and resolves with the ended run. */
  askWith(text: string, file: { name: string; type?: string; bytes: Uint8Array }): Promise<WebRun> {
    const form = new FormData();
    form.append('text', text);
    form.append('file', new Blob([file.bytes], { type: file.type ?? '' }), file.name);
    return this.ended(() => this.client.upload('/api/ask', form, { [UPLOAD_HEADER]: '1' }));
  }

  /** Sends a question with `send` and resolves with its run once it has ended. */
  private async ended(send: () => Promise<Reply>): Promise<WebRun> {
    const feed = await this.stream();
    const from = feed.events.length;
    const sent = await send();
    if (sent.status !== 202) throw new Error(`ask: ${sent.status} ${JSON.stringify(sent.body)}`);
    const ended = await feed.next(
      (e) =>
        e.event === 'run' &&
        (e.data as WebRun).id === sent.body?.id &&
        ['final', 'failed', 'cancelled'].includes((e.data as WebRun).phase),
      from,
    );
    return ended.data as WebRun;
  }

  /** Sends a command; resolves with its reply. */
  async command(text: string): Promise<string> {
    const sent = await this.client.request('/api/ask', { text });
    if (sent.status !== 200) throw new Error(`command: ${sent.status} ${JSON.stringify(sent.body)}`);
    return String(sent.body?.reply);
  }

  close(): void {
    this.feed?.close();
  }
}

/** The steps of a run as one text, labelled as the page labels them. */
export function stepsText(run: WebRun): string {
  const label = { thought: 'Thought', action: 'Action', observation: 'Observation' } as const;
  return run.steps
    .map((s) => (s.kind === 'more' || s.kind === 'note' ? s.text : `${label[s.kind]}: ${s.text}`))
    .join('\n');
}
