import type { Span } from '@opentelemetry/api';
import type { ChatModel, Completion, CompletionRequest } from '../llm/types.js';
import { inSpan, tracesContent } from './spans.js';

/**
 * `model` with a span per call, named and attributed as the OpenTelemetry GenAI conventions say: `chat
 * <model>`, the requested and answering model, input, output and cached tokens; messages only with
 * OTEL_CAPTURE_CONTENT.
 */
export function tracedChatModel(model: ChatModel, defaultModel: string, host: string | undefined): ChatModel {
  return {
    complete(request: CompletionRequest): Promise<Completion> {
      const name = request.model ?? defaultModel;
      return inSpan(
        `chat ${name}`,
        {
          client: true,
          attributes: {
            'gen_ai.operation.name': 'chat',
            'gen_ai.provider.name':
              host === undefined || host === 'api.openai.com' ? 'openai' : 'openai_compatible',
            'gen_ai.request.model': name,
            ...(host ? { 'server.address': host } : {}),
            ...(tracesContent() ? { 'gen_ai.input.messages': JSON.stringify(request.messages) } : {}),
          },
        },
        async (span) => {
          const completion = await model.complete(request);
          record(span, completion, name);
          return completion;
        },
      );
    },
  };
}

function record(span: Span, completion: Completion, name: string): void {
  span.setAttributes({
    'gen_ai.response.model': completion.answeredBy?.model ?? name,
    'gen_ai.usage.input_tokens': completion.usage.promptTokens,
    'gen_ai.usage.output_tokens': completion.usage.completionTokens,
    'gen_ai.usage.cache_read.input_tokens': completion.usage.cachedTokens ?? 0,
    ...(completion.finishReason ? { 'gen_ai.response.finish_reasons': [completion.finishReason] } : {}),
  });
  if (tracesContent()) {
    span.setAttribute(
      'gen_ai.output.messages',
      JSON.stringify([{ role: 'assistant', content: completion.content, tool_calls: completion.toolCalls }]),
    );
  }
}
