/** A target of the issue and whether this run met it (`null`: not measured). */
export interface TargetCheck {
  target: string;
  measured: string;
  met: boolean | null;
}

/** A printable table. */
export interface Table {
  title?: string;
  columns: string[];
  rows: (string | number)[][];
}

/** What one scenario hands back to `bench/run.ts`. */
export interface ScenarioReport {
  name: string;
  title: string;
  tables: Table[];
  targets: TargetCheck[];
  notes: string[];
  /** The raw figures, for latest.json. */
  data: unknown;
}

/** Options every scenario receives. */
export interface ScenarioOptions {
  /** Smaller sample sizes for a quick look. */
  quick: boolean;
}

/** A table as aligned plain text. */
export function formatTable(table: Table): string {
  const cells = [table.columns, ...table.rows.map((r) => r.map(String))];
  const widths = table.columns.map((_, c) => Math.max(...cells.map((r) => (r[c] ?? '').length)));
  const line = (r: string[]) =>
    r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  ');
  const out = [line(cells[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)];
  return (table.title ? `${table.title}\n` : '') + out.join('\n');
}

/** A table as GitHub markdown. */
export function markdownTable(table: Table): string {
  const row = (r: (string | number)[]) => `| ${r.map(String).join(' | ')} |`;
  const align = table.columns.map((_, c) => (c === 0 ? '---' : '---:'));
  return [row(table.columns), `|${align.join('|')}|`, ...table.rows.map(row)].join('\n');
}
