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

/** The tools offered at one version, and the names each server has among them. */
interface Snapshot {
  version: number;
  tools: readonly Tool[];
  byServer: ReadonlyMap<string, readonly string[]>;
}

/**
 * Creates the MCP tool source; servers connect on `start`, and reconnect on their own after failures. Two
 * tools offered under one name (`a`'s `b__c` and `a__b`'s `c`, or `x.y` and `x_y` of one server): the one
 * of the server listed first in mcp.json (then listed first by the server) is kept, the other skipped with
 * a warning. A built-in's name cannot be taken: every MCP tool's name has its server's prefix.
 */
export function createMcpToolSource(options: McpToolSourceOptions): McpToolSource {
  let version = 0;
  let snapshot: Snapshot | undefined;
  const warned = new Set<string>();
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
  const take = (): Snapshot => {
    if (snapshot?.version === version) return snapshot;
    const owners = new Map<string, string>();
    const tools: Tool[] = [];
    const byServer = new Map<string, string[]>();
    for (const server of servers) {
      const names: string[] = [];
      for (const tool of server.tools()) {
        const owner = owners.get(tool.name);
        if (owner === undefined) {
          owners.set(tool.name, server.name);
          tools.push(tool);
          names.push(tool.name);
        } else if (!warned.has(`${server.name}\n${tool.name}`)) {
          warned.add(`${server.name}\n${tool.name}`);
          options.logger.warn(
            { mcpServer: server.name, offeredAs: tool.name, keptFrom: owner },
            'an MCP tool has the same name as one offered before it; it is skipped',
          );
        }
      }
      byServer.set(server.name, names);
    }
    snapshot = { version, tools, byServer };
    return snapshot;
  };
  return {
    current: () => take().tools,
    version: () => version,
    groups: () => {
      const { byServer } = take();
      return servers.map(
        (s): ToolGroup => ({
          name: s.name,
          kind: 'mcp',
          state: s.state(),
          tools: byServer.get(s.name) ?? [],
          problem: s.problem(),
        }),
      );
    },
    async start() {
      await Promise.all(servers.map((s) => s.start()));
    },
    async close() {
      await Promise.all(servers.map((s) => s.close()));
    },
  };
}
