import type { ColumnSpec, Dialect, IndexSpec, Table } from './schema-types.js';

const TYPES: Record<Dialect, Record<string, string>> = {
  sqlite: {
    TEXT: 'TEXT',
    INTEGER: 'INTEGER',
    BIGINT: 'INTEGER',
    JSON: 'TEXT',
    BOOLEAN: 'INTEGER',
    IDENTITY: 'INTEGER PRIMARY KEY AUTOINCREMENT',
  },
  postgres: {
    TEXT: 'TEXT',
    INTEGER: 'INTEGER',
    BIGINT: 'BIGINT',
    JSON: 'JSONB',
    BOOLEAN: 'BOOLEAN',
    IDENTITY: 'BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY',
  },
};
const FALSE: Record<Dialect, string> = { sqlite: '0', postgres: 'FALSE' };
const LINE_WIDTH = 110;

/** `table` as one engine's CREATE TABLE statement followed by its CREATE INDEX statements. */
export function renderTable(dialect: Dialect, table: Table): string {
  const lines = Object.entries(table.columns).flatMap(([name, spec]) => column(dialect, name, spec));
  if (table.primaryKey) lines.push(`    PRIMARY KEY (${table.primaryKey})`);
  const create = `CREATE TABLE ${table.name} (\n${lines.join(',\n')}\n  )${dialect === 'sqlite' ? ' STRICT' : ''};`;
  const indexes = Object.entries(table.indexes ?? {}).flatMap(([name, spec]) =>
    index(dialect, table.name, name, spec),
  );
  return [create, ...indexes].join('\n  ');
}

function column(dialect: Dialect, name: string, spec: ColumnSpec): string[] {
  if (typeof spec !== 'string') {
    if (spec.only !== dialect) return [];
    return [`${spec.note ? `    -- ${spec.note}\n` : ''}    ${name} ${spec.sql}`];
  }
  const [type = '', ...rest] = spec.split(' ');
  const sql = [TYPES[dialect][type] ?? unknownType(type), ...rest]
    .join(' ')
    .replace('DEFAULT FALSE', `DEFAULT ${FALSE[dialect]}`);
  const line = `    ${name} ${sql}`;
  // A check that would make the line overlong goes on a line of its own.
  return [line.length > LINE_WIDTH ? line.replace(' CHECK ', '\n      CHECK ') : line];
}

function index(dialect: Dialect, table: string, name: string, spec: IndexSpec): string[] {
  if (typeof spec === 'string') return [`CREATE INDEX ${name} ON ${table} (${spec});`];
  if ('unless' in spec) {
    const where = dialect === 'sqlite' ? `${spec.unless} = 0` : `NOT ${spec.unless}`;
    return [`CREATE INDEX ${name} ON ${table} (${spec.columns}) WHERE ${where};`];
  }
  return spec.only === dialect
    ? [`CREATE INDEX ${name} ON ${table} USING ${spec.using} (${spec.columns});`]
    : [];
}

function unknownType(type: string): never {
  throw new Error(`unknown column type ${type}`);
}
