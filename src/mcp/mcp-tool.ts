import type { Tool as McpToolInfo } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { ToolApproval } from '../core/approvals/approval-policy.js';
import type { Tool, ToolContext, ToolOutput } from '../core/tools/define-tool.js';
import { removeControls } from '../core/util/control-text.js';

/** Longest tool name the model APIs take. */
const MAX_NAME = 64;
/** Longest description of a server's tool the model is shown; a longer one is cut. */
export const MAX_DESCRIPTION_CHARS = 2048;

/** Calls one tool of a server by its name there; throws ToolError for anything the model should read. */
export type McpCall = (
  tool: string,
  args: Record<string, unknown>,
  context: ToolContext,
) => Promise<ToolOutput>;

/** The model-facing name of a server's tool: `<server>__<tool>`, in the characters the model APIs accept. */
export function mcpToolName(server: string, tool: string): string {
  return `${server}__${tool.replace(/[^A-Za-z0-9_-]/g, '_')}`.slice(0, MAX_NAME);
}

/**
 * A server's tool as a core tool: its JSON schema goes to the model as is, and the server checks the
 * input itself (its complaint comes back as the Observation), so the core only checks it is an object.
 * What the server wrote is text it chose: secrets (`redact`) come out of the name, the description and
 * the schema, control characters out of the description, which is cut to 2 KB. `approval` is mcp.json's
 * policy for it (APPROVAL_DEFAULT_MCP when unset).
 */
export function toCoreTool(
  server: string,
  info: McpToolInfo,
  call: McpCall,
  redact: (text: string) => string = (text) => text,
  approval?: ToolApproval | undefined,
): Tool<Record<string, unknown>> {
  const { $schema: _ignored, ...schema } = redactStrings(info.inputSchema, redact) as Record<string, unknown>;
  const parameters = { ...schema, type: 'object', properties: schema.properties ?? {} };
  const description =
    clean(info.description ?? '', redact) ||
    clean(info.title ?? '', redact) ||
    clean(`The ${info.name} tool of ${server}.`, redact);
  return {
    name: mcpToolName(server, redact(info.name)),
    description,
    schema: z.record(z.string(), z.unknown()),
    parameters,
    origin: 'mcp',
    ...(approval ? { approval } : {}),
    execute: async (input, context) => (await call(info.name, input, context)).text,
    executeWithImages: (input, context) => call(info.name, input, context),
  };
}

/** Control characters out first (they could split a secret), then secrets, then the cut. */
function clean(text: string, redact: (text: string) => string): string {
  const plain = redact(removeControls(text, '\n\t')).trim();
  if (plain.length <= MAX_DESCRIPTION_CHARS) return plain;
  const cut = plain.slice(0, MAX_DESCRIPTION_CHARS - 1);
  return `${/[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut}…`;
}

/** Every key and string of a JSON value, redacted. */
function redactStrings(value: unknown, redact: (text: string) => string): unknown {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map((item) => redactStrings(item, redact));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [redact(key), redactStrings(item, redact)]),
    );
  }
  return value;
}
