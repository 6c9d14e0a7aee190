import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { escapeControls } from '../core/util/control-text.js';
import type { McpTransportConfig } from './config/mcp-config.js';

/** The name and version thinkthread gives servers when it connects. */
const CLIENT_INFO = { name: 'thinkthread', version: '0.1.0' };

/** Options of {@link openClient}. */
export interface OpenOptions {
  /** Bounds the whole handshake; aborted means give up. */
  signal: AbortSignal;
  timeoutMs: number;
  /** Each line a stdio server writes to stderr. */
  onStderr: (line: string) => void;
  /** The server said its tool list changed. */
  onToolsChanged: () => void;
}

/** Connects to a server: spawns a stdio one, or tries Streamable HTTP and then SSE for a URL. */
export async function openClient(transport: McpTransportConfig, options: OpenOptions): Promise<Client> {
  const request = { signal: options.signal, timeout: options.timeoutMs };
  if (transport.kind === 'stdio') {
    const stdio = new StdioClientTransport({
      command: transport.command,
      args: [...transport.args],
      env: transport.env,
      stderr: 'pipe',
      ...(transport.cwd ? { cwd: transport.cwd } : {}),
    });
    let partial = '';
    stdio.stderr?.on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString('utf8')).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines.map((l) => l.trimEnd()).filter(Boolean)) options.onStderr(line);
    });
    const client = newClient(options);
    await connectOrClose(client, stdio, request);
    return client;
  }
  const url = new URL(transport.url);
  const requestInit = { headers: transport.headers };
  let streamable: unknown;
  if (transport.sse !== 'only') {
    const client = newClient(options);
    try {
      await connectOrClose(client, new StreamableHTTPClientTransport(url, { requestInit }), request);
      return client;
    } catch (err) {
      if (options.signal.aborted) throw err;
      streamable = err;
    }
  }
  // Servers from before the 2025-03-26 protocol speak only the HTTP+SSE transport.
  const client = newClient(options);
  try {
    await connectOrClose(client, new SSEClientTransport(url, { requestInit }), request);
    return client;
  } catch (err) {
    if (streamable === undefined || options.signal.aborted) throw err;
    throw new Error(`Streamable HTTP: ${messageOf(streamable)}; SSE: ${messageOf(err)}`);
  }
}

function newClient(options: OpenOptions): Client {
  return new Client(CLIENT_INFO, {
    capabilities: {},
    listChanged: { tools: { autoRefresh: false, onChanged: () => options.onToolsChanged() } },
  });
}

async function connectOrClose(
  client: Client,
  transport: Transport,
  request: { signal: AbortSignal; timeout: number },
): Promise<void> {
  try {
    await client.connect(transport, request);
  } catch (err) {
    await client.close().catch(() => {});
    throw err;
  }
}

/** An error's message, for logs and `/tools`: a server may have written it, so its control characters are escaped. */
export function messageOf(err: unknown): string {
  return escapeControls(err instanceof Error ? err.message : String(err));
}
