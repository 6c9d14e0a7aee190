/**
 * A tool written as its signature rather than called with values: `get_historical_events(year, location=None,
 * keyword=None)`, `search(query: str)`. Models copy it from the tool list into a sentence ("I should use the
 * tool `…` to gather information") and give no value for any parameter.
 */
import { matchTool } from './tool-name.js';

/** A parameter as a signature lists it: a name, perhaps a type, perhaps an empty or constant default. */
const PARAM_RE =
  /^[ \t]*\*{0,2}[a-z_][a-z0-9_]{0,40}[ \t]*(?::[ \t]*[A-Za-z_][\w.[\] |]{0,40})?[ \t]*(?:=[ \t]*(?:None|null|nil|undefined|True|False|true|false|""|''|\[\]|\{\}|-?\d{1,6}(?:\.\d{1,6})?))?[ \t]*$/;

/** A name followed by a bracketed list on one line. */
const CALL_RE = /([\p{L}\p{N}_.-]{1,80})[ \t]?\(([^()\n]{1,300})\)/gu;

/** Whether `line` writes `tool` as a signature: its list holds parameter names only, no value. */
export function writesSignature(line: string, tool: string, toolNames: readonly string[]): boolean {
  let calls = 0;
  for (const m of line.slice(0, 600).matchAll(CALL_RE)) {
    if (++calls > 8) break;
    if (matchTool(m[1]!, toolNames) !== tool) continue;
    return m[2]!.split(',').every((p) => PARAM_RE.test(p));
  }
  return false;
}
