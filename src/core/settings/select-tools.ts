import type { ToolGroup } from '../ports/tool-source.js';

/** The names a channel's `tools` setting may use: built-in tool names, then MCP server names. */
export function toolSettingNames(groups: readonly ToolGroup[]): string[] {
  const builtIn = groups.filter((g) => g.kind === 'built-in').flatMap((g) => g.tools);
  const servers = groups.filter((g) => g.kind === 'mcp').map((g) => g.name);
  return [...new Set([...builtIn, ...servers])];
}

/**
 * The groups as a channel sees them: built-in tools it names, and every tool of the servers it names;
 * everything when it names none (`all`).
 */
export function groupsInForce(
  groups: readonly ToolGroup[],
  names: readonly string[] | 'all' | undefined,
): ToolGroup[] {
  if (names === undefined || names === 'all') return [...groups];
  return groups.flatMap((g) => {
    if (g.kind === 'mcp') return names.includes(g.name) ? [g] : [];
    return [{ ...g, tools: g.tools.filter((t) => names.includes(t)) }];
  });
}

/** The model-facing names of the tools in force, or undefined for every tool. */
export function toolNamesInForce(
  groups: readonly ToolGroup[],
  names: readonly string[] | 'all' | undefined,
): ReadonlySet<string> | undefined {
  if (names === undefined || names === 'all') return undefined;
  return new Set(groupsInForce(groups, names).flatMap((g) => g.tools));
}
