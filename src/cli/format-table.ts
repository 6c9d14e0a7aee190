/** How a column lines up in a text table. */
export type Align = 'left' | 'right';

/**
 * A plain-text table: a header, a rule under it, the rows, and (when given) a rule and a footer row.
 * Columns are as wide as their widest cell.
 */
export function formatTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  align: readonly Align[],
  footer?: readonly string[],
): string {
  const all = [header, ...rows, ...(footer ? [footer] : [])];
  const widths = header.map((_, c) => Math.max(...all.map((row) => (row[c] ?? '').length)));
  const line = (row: readonly string[]) =>
    row
      .map((cell, c) => (align[c] === 'right' ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!)))
      .join('  ')
      .trimEnd();
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  const foot = footer ? [...(rows.length > 0 ? [rule] : []), line(footer)] : [];
  return [line(header), rule, ...rows.map(line), ...foot].join('\n');
}

/** RFC 4180 CSV: CRLF line ends; a field with a comma, quote or line break is quoted, quotes doubled. */
export function formatCsv(rows: readonly (readonly string[])[]): string {
  const field = (cell: string) => (/[",\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell);
  return rows.map((row) => `${row.map(field).join(',')}\r\n`).join('');
}
