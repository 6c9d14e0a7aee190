import type { Config } from '../../config.js';
import { calculatorTool } from './calculator.js';
import { currentTimeTool } from './current-time.js';
import type { Tool } from './define-tool.js';
import { readFileTool } from './read-file.js';
import { weatherTool } from './weather.js';
import { webSearchTool } from './web-search.js';
import { wikipediaTool } from './wikipedia.js';

/** Creates a tool from configuration, or returns null when it is not available (e.g. no API key). */
export type ToolFactory = (config: Config) => Tool | null;

/** Every built-in tool. Adding a tool: create its file, then add one line here. */
const factories: readonly ToolFactory[] = [
  calculatorTool,
  currentTimeTool,
  weatherTool,
  wikipediaTool,
  webSearchTool,
  readFileTool,
];

/** The tools enabled by this configuration, in a stable order. */
export function createTools(config: Config): Tool[] {
  const tools: Tool[] = [];
  for (const factory of factories) {
    const tool = factory(config);
    if (tool) tools.push(tool);
  }
  return tools;
}
