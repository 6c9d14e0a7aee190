import type { Tool as McpToolInfo } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Tool, ToolContext, ToolOutput } from '../core/tools/define-tool.js';

/** Longest tool name the model APIs take. */
const MAX_NAME = 64;

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
 */
export function toCoreTool(server: string, info: McpToolInfo, call: McpCall): Tool<Record<string, unknown>> {
  const { $schema: _ignored, ...schema } = info.inputSchema as Record<string, unknown>;
  const parameters = { ...schema, type: 'object', properties: schema.properties ?? {} };
  const description = info.description?.trim() || info.title || `The ${info.name} tool of ${server}.`;
  return {
    name: mcpToolName(server, info.name),
    description,
    schema: z.record(z.string(), z.unknown()),
    parameters,
    execute: async (input, context) => (await call(info.name, input, context)).text,
    executeWithImages: (input, context) => call(info.name, input, context),
  };
}
