import type { Logger } from '../core/logger.js';
import { loadMcpConfig, type McpConfig, mcpConfigFile } from './config/mcp-config.js';
import type { Backoff } from './mcp-server.js';
import type { McpToolSource } from './mcp-tool-source.js';

/** The mcp.json the settings name (MCP_CONFIG, else ./mcp.json when present), loaded; undefined when none. */
export function loadMcp(
  setting: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): McpConfig | undefined {
  const file = mcpConfigFile(setting);
  return file ? loadMcpConfig(file, env) : undefined;
}

/** What connecting to the servers needs besides mcp.json. */
export interface StartMcpOptions {
  settings: { MCP_CONNECT_TIMEOUT_MS: number; TOOL_TIMEOUT_MS: number };
  logger: Logger;
  redact: (text: string) => string;
  backoff?: Backoff | undefined;
}

/**
 * Connects to mcp.json's servers at once and waits for each to connect or fail its first attempt (a
 * failed one is retried in the background, so this never fails); undefined when there is no mcp.json.
 */
export async function startMcp(
  mcp: McpConfig | undefined,
  options: StartMcpOptions,
): Promise<McpToolSource | undefined> {
  if (!mcp || mcp.servers.length === 0) return undefined;
  // Loaded only with servers to connect to: the MCP SDK is about 25 MB a bot without them need not hold.
  const { createMcpToolSource } = await import('./mcp-tool-source.js');
  const source = createMcpToolSource({
    servers: mcp.servers,
    connectTimeoutMs: options.settings.MCP_CONNECT_TIMEOUT_MS,
    callTimeoutMs: options.settings.TOOL_TIMEOUT_MS,
    logger: options.logger,
    redact: options.redact,
    backoff: options.backoff,
  });
  await source.start();
  options.logger.info(
    { servers: source.groups().map((g) => `${g.name}: ${g.state}`), file: mcp.file },
    'MCP servers started',
  );
  return source;
}
