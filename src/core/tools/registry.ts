import { type CalculatorSettings, calculatorTool } from './calculator.js';
import { type CurrentTimeSettings, currentTimeTool } from './current-time.js';
import type { Tool } from './define-tool.js';
import { type ReadFileSettings, readFileTool } from './read-file.js';
import { type WeatherSettings, weatherTool } from './weather.js';
import { type WebSearchSettings, webSearchTool } from './web-search.js';
import { type WikipediaSettings, wikipediaTool } from './wikipedia.js';

/** Each built-in tool's settings, apart: a tool is handed its own and nothing else. */
export interface ToolSettings {
  calculator: CalculatorSettings;
  currentTime: CurrentTimeSettings;
  weather: WeatherSettings;
  wikipedia: WikipediaSettings;
  webSearch: WebSearchSettings;
  readFile: ReadFileSettings;
}

/** The tools these settings enable, in a stable order. Adding a tool: create its file, then add it here. */
export function createTools(settings: ToolSettings): Tool[] {
  return [
    calculatorTool(settings.calculator),
    currentTimeTool(settings.currentTime),
    weatherTool(settings.weather),
    wikipediaTool(settings.wikipedia),
    webSearchTool(settings.webSearch),
    readFileTool(settings.readFile),
  ].filter((tool): tool is Tool => tool !== null);
}
