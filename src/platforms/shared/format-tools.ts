import type { ToolReport } from '../../core/assistant.js';
import type { ToolGroup } from '../../core/ports/tool-source.js';

const STATE: Record<ToolGroup['state'], string> = {
  ready: 'connected',
  connecting: 'connecting',
  failed: 'unavailable, retrying',
  closed: 'stopped',
};

function group(g: ToolGroup): string[] {
  if (g.kind === 'built-in') return [`Built-in: ${g.tools.join(', ') || 'none'}`];
  const head = `MCP server ${g.name} (${STATE[g.state]}${g.problem ? `: ${g.problem}` : ''})`;
  return g.tools.length ? [`${head}:`, ...g.tools.map((t) => `  ${t}`)] : [`${head}: no tools in force`];
}

/** The `/tools` report as plain text: the tools in force, grouped by where they come from. */
export function formatToolsReport(report: ToolReport): string {
  const lines = report.groups.flatMap(group);
  return lines.length ? lines.join('\n') : 'No tools are available.';
}
