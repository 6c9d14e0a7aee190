import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AgentEvent } from '../../src/core/agent/events.js';
import type { AskOutcome, Assistant } from '../../src/core/assistant.js';

const root = resolve(import.meta.dirname, '../..');
// By path: `--import tsx` would resolve from the server's cwd.
const tsxLoader = pathToFileURL(join(root, 'node_modules/tsx/dist/loader.mjs')).href;

/** The mcp.json entry that spawns the test server over stdio. */
export function stdioTestServer(env: Record<string, string> = {}): Record<string, unknown> {
  return {
    command: process.execPath,
    args: ['--import', tsxLoader, join(root, 'tests/mcp/fixtures/test-mcp-server.ts')],
    env,
  };
}

/** The mcp.json entry of the reference server `@modelcontextprotocol/server-everything`, over stdio. */
export function everythingServer(): Record<string, unknown> {
  return {
    command: process.execPath,
    args: [join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'],
  };
}

/** Writes `{ mcpServers }` to `dir/mcp.json` and returns its path. */
export function writeMcpJson(dir: string, mcpServers: Record<string, unknown>): string {
  const file = join(dir, 'mcp.json');
  writeFileSync(file, JSON.stringify({ mcpServers }, null, 2));
  return file;
}

/** One question through the assistant, with every event it produced. */
export async function askWithEvents(
  assistant: Assistant,
  text: string,
  signal?: AbortSignal,
): Promise<{
  outcome: AskOutcome;
  events: AgentEvent[];
  observations: Extract<AgentEvent, { type: 'observation' }>[];
}> {
  const events: AgentEvent[] = [];
  const outcome = await assistant.ask(
    { key: 'test:mcp', author: 'tester', text, ...(signal ? { signal } : {}) },
    (e) => events.push(e),
  );
  const observations = events.filter(
    (e): e is Extract<AgentEvent, { type: 'observation' }> => e.type === 'observation',
  );
  return { outcome, events, observations };
}
