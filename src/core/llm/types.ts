import type { TokenUsage } from '../agent/events.js';

/** One function call requested by the model. `arguments` is the raw JSON text. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** A message in the provider-neutral conversation sent to a model. */
export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string | null; toolCalls?: readonly ToolCall[] }
  | { role: 'tool'; toolCallId: string; content: string };

/** A tool as the model sees it: name, description and JSON schema of its input. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** One model call. */
export interface CompletionRequest {
  messages: readonly ChatMessage[];
  tools?: readonly ToolSpec[];
  /** `none` forbids tool calls for this request (used at the last step). */
  toolChoice?: 'auto' | 'none';
  stop?: readonly string[];
  signal?: AbortSignal;
  /** Called with each piece of assistant text as it streams in. */
  onTextDelta?: (text: string) => void;
  maxTokens?: number;
  /** Groups requests that share a prompt prefix (a conversation), so the server routes them to the same cache. */
  cacheKey?: string;
}

/** What the model answered. */
export interface Completion {
  content: string;
  toolCalls: ToolCall[];
  usage: TokenUsage;
  finishReason: string | null;
}

/** Any chat model: the OpenAI-compatible client in production, anything in a pinch. */
export interface ChatModel {
  complete(request: CompletionRequest): Promise<Completion>;
}
