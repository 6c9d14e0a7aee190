import { renderTable } from './render-table.js';
import type { Dialect, Migration, Step } from './schema-types.js';

/** Each migration's text for one engine: its statements one per line, two spaces in. */
export function renderMigrations(dialect: Dialect, migrations: readonly Migration[]): string[] {
  return migrations.map(
    ({ steps, tail }) =>
      `\n${steps
        .map((step) => render(dialect, step))
        .filter((sql) => sql !== undefined)
        .map((sql) => `  ${sql}\n`)
        .join('')}${tail}`,
  );
}

/** A migration whose released text ended two spaces in (most of them). */
export const migration = (...steps: Step[]): Migration => ({ steps, tail: '  ' });

function render(dialect: Dialect, step: Step): string | undefined {
  if (typeof step === 'string') return step;
  if ('columns' in step) return renderTable(dialect, step);
  return step[dialect];
}
