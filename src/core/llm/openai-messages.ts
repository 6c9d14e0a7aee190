import type {
  ChatCompletionContentPart,
  ChatCompletionFunctionTool,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type { ChatMessage, ContentPart, ToolSpec } from './types.js';

// A run sends its growing list of messages, and the same tools, on every call: each is converted once.
const convertedMessages = new WeakMap<ChatMessage, ChatCompletionMessageParam>();
const convertedTools = new WeakMap<readonly ToolSpec[], ChatCompletionFunctionTool[]>();

/** A message in the Chat Completions shape, converted once per message. */
export function openAIMessage(message: ChatMessage): ChatCompletionMessageParam {
  let converted = convertedMessages.get(message);
  if (!converted) {
    converted = toOpenAIMessage(message);
    convertedMessages.set(message, converted);
  }
  return converted;
}

/** Tool specs as Chat Completions function tools, converted once per list. */
export function openAITools(tools: readonly ToolSpec[]): ChatCompletionFunctionTool[] {
  let converted = convertedTools.get(tools);
  if (!converted) {
    converted = tools.map((t) => ({
      type: 'function',
      function: { name: t.name, description: t.description, parameters: t.parameters },
    }));
    convertedTools.set(tools, converted);
  }
  return converted;
}

function toOpenAIMessage(message: ChatMessage): ChatCompletionMessageParam {
  switch (message.role) {
    case 'system':
      return { role: 'system', content: message.content };
    case 'user':
      return typeof message.content === 'string'
        ? { role: 'user', content: message.content }
        : { role: 'user', content: message.content.map(toOpenAIPart) };
    case 'assistant':
      return message.toolCalls?.length
        ? {
            role: 'assistant',
            content: message.content,
            tool_calls: message.toolCalls.map((c) => ({
              id: c.id,
              type: 'function',
              function: { name: c.name, arguments: c.arguments },
            })),
          }
        : { role: 'assistant', content: message.content ?? '' };
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
  }
}

/** Images go as data URLs, which every OpenAI-compatible vision server accepts. */
function toOpenAIPart(part: ContentPart): ChatCompletionContentPart {
  return part.type === 'text'
    ? { type: 'text', text: part.text }
    : { type: 'image_url', image_url: { url: `data:${part.mediaType};base64,${part.data}` } };
}
