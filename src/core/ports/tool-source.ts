import type { Tool } from '../tools/define-tool.js';

/** How a source of tools is doing: built-in tools are always `ready`; a server may be anywhere. */
export type ToolSourceState = 'ready' | 'connecting' | 'failed' | 'closed';

/** One group of tools as `/tools` shows it: the built-in tools, or one server's. */
export interface ToolGroup {
  /** `built-in`, or the server's name. */
  name: string;
  kind: 'built-in' | 'mcp';
  state: ToolSourceState;
  /** The model-facing names of the tools in force (none while the server is down). */
  tools: readonly string[];
  /** Why the group is not ready (already scrubbed of secrets). */
  problem?: string | undefined;
}

/** Tools that may come and go while the bot runs (e.g. from MCP servers); read at the start of each run. */
export interface ToolSource {
  /** The tools in force now, in a stable order. */
  current(): readonly Tool[];
  /** Changes whenever `current()` does, so the system prompt is re-rendered only then. */
  version(): number;
  /** The groups for `/tools`. */
  groups(): readonly ToolGroup[];
}

/** A fixed list of tools as a source that never changes. */
export function fixedTools(tools: readonly Tool[], name = 'built-in'): ToolSource {
  const group: ToolGroup = { name, kind: 'built-in', state: 'ready', tools: tools.map((t) => t.name) };
  return { current: () => tools, version: () => 0, groups: () => [group] };
}

/** Several sources as one, in order; its version changes whenever any of theirs does. */
export function combineTools(sources: readonly ToolSource[]): ToolSource {
  let cache: { versions: string; tools: readonly Tool[]; version: number } | undefined;
  const snapshot = () => {
    const versions = sources.map((s) => s.version()).join(',');
    if (cache?.versions !== versions) {
      const seen = new Set<string>();
      // A later source never shadows an earlier tool of the same name.
      const tools = sources.flatMap((s) => s.current()).filter((t) => !seen.has(t.name) && seen.add(t.name));
      cache = { versions, tools, version: (cache?.version ?? 0) + 1 };
    }
    return cache;
  };
  return {
    current: () => snapshot().tools,
    version: () => snapshot().version,
    groups: () => sources.flatMap((s) => s.groups()),
  };
}

/** `source` with each tool replaced by `wrap(tool)` (the same wrapped tool until the source changes). */
export function mapTools(source: ToolSource, wrap: (tool: Tool) => Tool): ToolSource {
  let cache: { version: number; tools: readonly Tool[] } | undefined;
  const current = () => {
    const version = source.version();
    if (cache?.version !== version) cache = { version, tools: source.current().map(wrap) };
    return cache.tools;
  };
  return { current, version: () => source.version(), groups: () => source.groups() };
}
