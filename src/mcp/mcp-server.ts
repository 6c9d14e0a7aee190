import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode, McpError, type Tool as McpToolInfo } from '@modelcontextprotocol/sdk/types.js';
import { isAbortError, ToolError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import type { ToolSourceState } from '../core/ports/tool-source.js';
import type { Tool } from '../core/tools/define-tool.js';
import { escapeControls } from '../core/util/control-text.js';
import type { McpServerConfig } from './config/mcp-config.js';
import { formatToolResult, toolResultImages } from './format-result.js';
import { type McpCall, toCoreTool } from './mcp-tool.js';
import { messageOf, openClient } from './open-client.js';

/** The SDK's own call timeout is a backstop: the core's TOOL_TIMEOUT_MS deadline fires first and says so. */
const BACKSTOP_MARGIN_MS = 1000;
/** Lines of a stdio server's stderr kept to explain why it stopped. */
const TAIL_LINES = 5;

/** A live client and the last lines its server wrote to stderr. */
interface Connection {
  client: Client;
  tail: string[];
}

/** Waits between reconnection attempts: doubling from `initialMs` up to `maxMs`. */
export interface Backoff {
  initialMs: number;
  maxMs: number;
}

/** Options of one server's connection. */
export interface McpServerOptions {
  config: McpServerConfig;
  /** Longest the handshake and the tool listing may take. */
  connectTimeoutMs: number;
  /** Longest one call may take when nothing cancels it sooner (TOOL_TIMEOUT_MS). */
  callTimeoutMs: number;
  backoff: Backoff;
  logger: Logger;
  /** Scrubs secrets from what the server says before `/tools` shows it. */
  redact: (text: string) => string;
  /** Called whenever the server's tools or state change. */
  onChange: () => void;
}

/** One MCP server: its connection, its tools while connected, and reconnection with backoff. */
export interface McpServer {
  readonly name: string;
  state(): ToolSourceState;
  /** The tools in force: none unless connected. */
  tools(): readonly Tool[];
  /** Why it is not connected. */
  problem(): string | undefined;
  /** The first connection attempt; never rejects (a failure schedules a retry). */
  start(): Promise<void>;
  close(): Promise<void>;
}

/** Creates a server's connection manager; nothing happens until `start`. */
export function createMcpServer(options: McpServerOptions): McpServer {
  const { config, logger } = options;
  const name = config.name;
  const log = logger.child({ mcpServer: name });
  let state: ToolSourceState = 'connecting';
  let tools: readonly Tool[] = [];
  let problem: string | undefined;
  let open: Connection | undefined;
  let failures = 0;
  let everConnected = false;
  let retry: NodeJS.Timeout | undefined;
  let attempt: AbortController | undefined;
  let missingWarned = false;

  const set = (next: ToolSourceState, nextTools: readonly Tool[], why?: string) => {
    state = next;
    tools = nextTools;
    problem = why === undefined ? undefined : options.redact(escapeControls(why));
    options.onChange();
  };

  const call: McpCall = async (tool, args, context) => {
    const current = open;
    if (!current || state !== 'ready') {
      throw new ToolError(
        `the MCP server "${name}" is not connected right now${problem ? ` (${problem})` : ''}.`,
      );
    }
    let result: Awaited<ReturnType<Client['callTool']>>;
    try {
      result = await current.client.callTool({ name: tool, arguments: args }, undefined, {
        signal: context.signal,
        timeout: options.callTimeoutMs + BACKSTOP_MARGIN_MS,
      });
    } catch (err) {
      if (context.signal.aborted || isAbortError(err)) throw err;
      if (err instanceof McpError && err.code === ErrorCode.RequestTimeout) {
        throw new ToolError(`the MCP server "${name}" did not answer in time.`);
      }
      if (!(err instanceof McpError) || err.code === ErrorCode.ConnectionClosed) {
        lost(current, `the connection failed during a call: ${messageOf(err)}`);
        throw new ToolError(`the MCP server "${name}" stopped answering during the call; try again later.`);
      }
      throw new ToolError(options.redact(err.message));
    }
    const content = result as Parameters<typeof formatToolResult>[0];
    const text = formatToolResult(content);
    if (result.isError) throw new ToolError(text);
    return { text, images: toolResultImages(content) };
  };

  async function listTools(client: Client, signal: AbortSignal): Promise<Tool[]> {
    const infos: McpToolInfo[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : {}, {
        signal,
        timeout: options.connectTimeoutMs,
      });
      infos.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    const wanted = config.tools;
    const offered = wanted ? infos.filter((t) => wanted.includes(t.name)) : infos;
    const missing = wanted?.filter((w) => !infos.some((t) => t.name === w)) ?? [];
    if (missing.length > 0 && !missingWarned) {
      missingWarned = true;
      log.warn(
        { missing, offered: infos.map((t) => escapeControls(t.name)) },
        'mcp.json lists tools this MCP server does not have',
      );
    }
    return offered.map((info) =>
      toCoreTool(name, info, call, options.redact, config.toolApprovals?.[info.name] ?? config.approval),
    );
  }

  async function connect(): Promise<void> {
    retry = undefined;
    const controller = new AbortController();
    attempt = controller;
    const timer = setTimeout(
      () => controller.abort(new Error(`no answer within ${options.connectTimeoutMs} ms`)),
      options.connectTimeoutMs,
    );
    const tail: string[] = [];
    let client: Client | undefined;
    try {
      client = await openClient(config.transport, {
        signal: controller.signal,
        timeoutMs: options.connectTimeoutMs,
        onStderr: (line) => {
          // Shown in terminals (the log, `/tools`): no escape sequence of the server's gets there raw.
          const said = escapeControls(line);
          log.debug({ stderr: said }, 'MCP server stderr');
          tail.push(said.slice(0, 300));
          if (tail.length > TAIL_LINES) tail.shift();
        },
        onToolsChanged: () => void refresh(),
      });
      const listed = await listTools(client, controller.signal);
      if (controller.signal.aborted) throw controller.signal.reason;
      const connection: Connection = { client, tail };
      open = connection;
      client.onclose = () => lost(connection, 'the connection closed');
      failures = 0;
      set('ready', listed);
      log.info(
        { tools: listed.length },
        everConnected ? 'MCP server connected again' : 'MCP server connected',
      );
      everConnected = true;
    } catch (err) {
      await client?.close().catch(() => {});
      if (attempt !== controller) return;
      const reason = controller.signal.aborted ? messageOf(controller.signal.reason) : messageOf(err);
      failed(explain(reason, tail));
    } finally {
      clearTimeout(timer);
      if (attempt === controller) attempt = undefined;
    }
  }

  async function refresh(): Promise<void> {
    const current = open;
    if (!current || state !== 'ready') return;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), options.connectTimeoutMs);
    try {
      const listed = await listTools(current.client, controller.signal);
      if (open === current) set('ready', listed);
    } catch (err) {
      log.warn({ err: messageOf(err) }, 'could not refresh the tools of an MCP server');
    } finally {
      clearTimeout(timer);
    }
  }

  /** A connection that worked has failed: withdraw the tools, close it, and try again. */
  function lost(which: Connection, why: string): void {
    if (open !== which || state === 'closed') return;
    open = undefined;
    which.client.onclose = undefined;
    void which.client.close().catch(() => {});
    failed(explain(why, which.tail));
  }

  function failed(why: string): void {
    if (state === 'closed') return;
    set('failed', [], why);
    const delay = Math.min(options.backoff.initialMs * 2 ** failures, options.backoff.maxMs);
    // Logged once per outage; retries that fail too are only debug lines.
    if (failures === 0)
      log.warn({ problem, retryInMs: delay }, 'MCP server unavailable; its tools are withdrawn');
    else log.debug({ problem, retryInMs: delay }, 'MCP server still unavailable');
    failures++;
    retry = setTimeout(() => {
      set('connecting', [], problem);
      void connect();
    }, delay);
    retry.unref();
  }

  return {
    name,
    state: () => state,
    tools: () => tools,
    problem: () => problem,
    start: () => connect(),
    async close() {
      clearTimeout(retry);
      attempt?.abort(new Error('shutting down'));
      const current = open;
      open = undefined;
      set('closed', []);
      if (current) {
        current.client.onclose = undefined;
        await current.client.close().catch(() => {});
      }
    },
  };
}

/** A stdio server's last words explain most failures ("missing API key"), so they go with the reason. */
function explain(reason: string, tail: readonly string[]): string {
  return tail.length ? `${reason}; it said: ${tail.join(' | ')}` : reason;
}
