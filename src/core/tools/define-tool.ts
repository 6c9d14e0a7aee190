import { z } from 'zod';
import type { ToolApproval } from '../approvals/approval-policy.js';
import { ToolError } from '../errors.js';
import type { ContentPart, ToolSpec } from '../llm/types.js';
import type { UntrustedSource } from '../util/untrusted.js';

/** What a tool receives besides its input. */
export interface ToolContext {
  /** Aborted when the tool times out, the run times out, or the run is cancelled. */
  signal: AbortSignal;
  /** The conversation the run answers in (a thread is its own); absent outside a conversation. */
  key?: string | undefined;
  /** Whose settings apply (a thread's channel): where files shared in the channel are searched. */
  settingsKey?: string | undefined;
  /** Who asked (a principal such as `slack:T…:U…`), when the platform said. */
  principal?: string | undefined;
  /** Whether the asker is an admin, looked up only when asked. */
  askerIsAdmin?: (() => Promise<boolean>) | undefined;
  /** Asked in a DM or a private channel. */
  privatePlace?: boolean | undefined;
}

/** An image a tool returned (base64), for models that can see. */
export type ToolImage = Extract<ContentPart, { type: 'image' }>;

/** Observation text plus the images that came with it. */
export interface ToolOutput {
  text: string;
  images: readonly ToolImage[];
}

/** A tool the agent can call: a zod input schema plus `execute`, returning Observation text. */
export interface Tool<Input = unknown> {
  readonly name: string;
  readonly description: string;
  readonly schema: z.ZodType<Input>;
  /** The JSON schema the model sees, derived once from `schema`. */
  readonly parameters: Record<string, unknown>;
  execute(input: Input, context: ToolContext): Promise<string>;
  /** Whether its calls wait for a person's approval; absent: see approvalOf (built-ins never do). */
  readonly approval?: ToolApproval | undefined;
  /** Where the tool comes from: an MCP server, or built in when absent. */
  readonly origin?: 'mcp' | undefined;
  /** Like `execute`, with the images the result carries (MCP tools); preferred when present. */
  executeWithImages?(input: Input, context: ToolContext): Promise<ToolOutput>;
  /** How its result is quoted to the model: `tool` when absent; `recall` and `knowledge` for what people wrote. */
  readonly quotedAs?: UntrustedSource | undefined;
}

/** Creates a tool from its own settings (none by default), or null when it is not available (e.g. no key). */
export type ToolFactory<Settings = void> = (settings: Settings) => Tool | null;

/** Options for {@link defineTool}. */
export interface ToolDefinition<S extends z.ZodType> {
  name: string;
  description: string;
  input: S;
  execute(input: z.output<S>, context: ToolContext): Promise<string> | string;
  quotedAs?: UntrustedSource | undefined;
}

/** Error a tool throws to send `message` to the model as the observation, without a stack or prefix. */
export class ToolInputError extends ToolError {
  constructor(message: string) {
    super(message, 'tool_input');
  }
}

/** Builds a tool; the model-facing JSON schema is derived from the zod schema. */
export function defineTool<S extends z.ZodType>(definition: ToolDefinition<S>): Tool<z.output<S>> {
  if (!/^[a-zA-Z0-9_-]{1,64}$/.test(definition.name)) {
    throw new Error(`Invalid tool name "${definition.name}": use letters, digits, _ or -.`);
  }
  const parameters = z.toJSONSchema(definition.input, { io: 'input' }) as Record<string, unknown>;
  delete parameters.$schema;
  return {
    name: definition.name,
    description: definition.description,
    schema: definition.input as unknown as z.ZodType<z.output<S>>,
    parameters,
    execute: async (input, context) => definition.execute(input, context),
    ...(definition.quotedAs ? { quotedAs: definition.quotedAs } : {}),
  };
}

/** The model-facing description of a tool. */
export function toToolSpec(tool: Tool): ToolSpec {
  return { name: tool.name, description: tool.description, parameters: tool.parameters };
}
