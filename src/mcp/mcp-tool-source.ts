import type { Logger } from '../core/logger.js';
import type { ToolGroup, ToolSource } from '../core/ports/tool-source.js';
import type { Tool } from '../core/tools/define-tool.js';
import type { McpServerConfig } from './config/mcp-config.js';
import { type Backoff, createMcpServer, type McpServer } from './mcp-server.js';

/** Reconnection waits unless a test asks for others: 1 s doubling up to 5 minutes. */
const DEFAULT_BACKOFF: Backoff = { initialMs: 1000, maxMs: 300_000 };

/** Options of {@link createMcpToolSource}. */
export interface McpToolSourceOptions {
  servers: readonly McpServerConfig[];
  /** MCP_CONNECT_TIMEOUT_MS. */
  connectTimeoutMs: number;
  /** TOOL_TIMEOUT_MS. */
  callTimeoutMs: number;
  logger: Logger;
  redact: (text: string) => string;
  backoff?: Backoff | undefined;
}

/** The tools of every MCP server in mcp.json, as a source the agent reads per run. */
export interface McpToolSource extends ToolSource {
  /** Connects every server at once; resolves when each is connected or has failed its first attempt. */
  start(): Promise<void>;
  /** Disconnects every server (stdio servers are stopped). */
  close(): Promise<void>;
}

/** Creates the MCP tool source; servers connect on `start`, and reconnect on their own after failures. */
export function createMcpToolSource(options: McpToolSourceOptions): McpToolSource {
  let version = 0;
  let snapshot: { version: number; tools: readonly Tool[] } | undefined;
  const servers: McpServer[] = options.servers.map((config) =>
    createMcpServer({
      config,
      connectTimeoutMs: options.connectTimeoutMs,
      callTimeoutMs: options.callTimeoutMs,
      backoff: options.backoff ?? DEFAULT_BACKOFF,
      logger: options.logger,
      redact: options.redact,
      onChange: () => {
        version++;
      },
    }),
  );
  return {
    current() {
      if (snapshot?.version !== version) {
        snapshot = { version, tools: servers.flatMap((s) => s.tools()) };
      }
      return snapshot.tools;
    },
    version: () => version,
    groups: () =>
      servers.map(
        (s): ToolGroup => ({
          name: s.name,
          kind: 'mcp',
          state: s.state(),
          tools: s.tools().map((t) => t.name),
          problem: s.problem(),
        }),
      ),
    async start() {
      await Promise.all(servers.map((s) => s.start()));
    },
    async close() {
      await Promise.all(servers.map((s) => s.close()));
    },
  };
}
