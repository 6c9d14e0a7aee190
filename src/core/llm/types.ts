/** Tokens spent by the model over a run (or one call). */
export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  /** Of the prompt tokens, how many the server took from its prompt cache (when it says). */
  cachedTokens?: number;
}

/** One function call requested by the model. `arguments` is the raw JSON text. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** A piece of a user message: text, or an image (base64) for models that can see. */
export type ContentPart = { type: 'text'; text: string } | { type: 'image'; mediaType: string; data: string };

/** A message in the provider-neutral conversation sent to a model. */
export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | readonly ContentPart[] }
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
  /**
   * Cancels the request. The client keeps one listener on it per request until the signal is dropped, so it
   * must live about as long as a run (a process-wide signal needs a child per call, see `linkedSignal`).
   */
  signal?: AbortSignal;
  /** Called with each piece of assistant text as it streams in. */
  onTextDelta?: (text: string) => void;
  /** Called with each piece of the model's reasoning (`reasoning_content`, `<think>` blocks) as it streams in. */
  onReasoningDelta?: (text: string) => void;
  maxTokens?: number;
  /** Groups requests that share a prompt prefix (a conversation), so the server routes them to the same cache. */
  cacheKey?: string;
  /** Another model on the same endpoint for this request (a channel's setting); the client's own when unset. */
  model?: string | undefined;
}

/** What the model answered. */
export interface Completion {
  /** The reply, without the model's reasoning. */
  content: string;
  /** The model's reasoning, when it sent any: never part of the reply. */
  reasoning?: string;
  toolCalls: ToolCall[];
  usage: TokenUsage;
  finishReason: string | null;
  /** Set by a fallback chain (LLM_FALLBACK): which endpoint answered, and the primary it stood in for. */
  answeredBy?: AnsweredBy | undefined;
}

/** The endpoint that answered one request of a fallback chain. */
export interface AnsweredBy {
  /** The model name it answered with. */
  model: string;
  /** `model@host` (see endpointName). */
  endpoint: string;
  /** `model@host` of the primary, when a fallback answered in its place. */
  insteadOf?: string | undefined;
}

/** Any chat model: the OpenAI-compatible client in production, anything in a pinch. */
export interface ChatModel {
  complete(request: CompletionRequest): Promise<Completion>;
}
