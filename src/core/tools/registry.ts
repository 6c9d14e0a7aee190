import type { Config } from '../../config.js';
import type { Tool } from './define-tool.js';

/** Creates a tool from configuration, or returns null when it is not available (e.g. no API key). */
export type ToolFactory = (config: Config) => Tool | null;

/** Every built-in tool. Adding a tool: create its file, then add one line here. */
const factories: readonly ToolFactory[] = [];

/** The tools enabled by this configuration, in a stable order. */
export function createTools(config: Config): Tool[] {
  const tools: Tool[] = [];
  for (const factory of factories) {
    const tool = factory(config);
    if (tool) tools.push(tool);
  }
  return tools;
}
