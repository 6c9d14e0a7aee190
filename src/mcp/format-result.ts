import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolImage } from '../core/tools/define-tool.js';

type Content = CallToolResult['content'][number];

/**
 * An MCP tool result as Observation text: text content as is; images, audio and resources described by
 * name, type and size (their bytes are not shown to the model); structured content as JSON when there is
 * nothing else.
 */
export function formatToolResult(result: CallToolResult): string {
  const parts = (result.content ?? []).map(describe);
  if (parts.length === 0 && result.structuredContent !== undefined) {
    parts.push(JSON.stringify(result.structuredContent));
  }
  return parts.join('\n') || '(no output)';
}

/** Media types of images a vision model takes. */
const VISION_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** The images of an MCP tool result that a vision model can be shown (the Observation describes them all). */
export function toolResultImages(result: CallToolResult): ToolImage[] {
  return (result.content ?? []).flatMap((item) =>
    item.type === 'image' && VISION_TYPES.has(item.mimeType)
      ? [{ type: 'image' as const, mediaType: item.mimeType, data: item.data }]
      : [],
  );
}

function describe(item: Content): string {
  switch (item.type) {
    case 'text':
      return item.text;
    case 'image':
      return `[image: ${item.mimeType}, ${bytes(base64Size(item.data))}]`;
    case 'audio':
      return `[audio: ${item.mimeType}, ${bytes(base64Size(item.data))}]`;
    case 'resource_link': {
      const details = [item.mimeType, item.size === undefined ? undefined : bytes(item.size)].filter(Boolean);
      return `[resource link: ${item.name} <${item.uri}>${details.length ? ` (${details.join(', ')})` : ''}]`;
    }
    case 'resource': {
      const { resource } = item;
      const type = resource.mimeType ?? 'unknown type';
      if ('text' in resource && typeof resource.text === 'string') {
        return `[resource: <${resource.uri}> (${type}, ${bytes(Buffer.byteLength(resource.text))})]\n${resource.text}`;
      }
      const blob = 'blob' in resource && typeof resource.blob === 'string' ? resource.blob : '';
      return `[resource: <${resource.uri}> (${type}, ${bytes(base64Size(blob))})]`;
    }
    default:
      return `[${String((item as { type?: unknown }).type)} content]`;
  }
}

function base64Size(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

function bytes(n: number): string {
  if (n < 1024) return `${n} bytes`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MiB`;
}
