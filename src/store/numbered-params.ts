/** A statement for Postgres: its text with `$1`, `$2`… and the values in that order from named parameters. */
export interface Numbered {
  text: string;
  values: (params: object) => unknown[];
}

/**
 * `sql`, written with `@name` parameters as SQLite takes them, numbered for Postgres: a name used twice
 * is one number. A parameter missing from the values throws, as SQLite does.
 */
export function numbered(sql: string): Numbered {
  const names: string[] = [];
  const text = sql.replace(/@(\w+)/g, (_, name: string) => {
    if (!names.includes(name)) names.push(name);
    return `$${names.indexOf(name) + 1}`;
  });
  return {
    text,
    values: (params) =>
      names.map((name) => {
        if (!(name in params)) throw new Error(`missing parameter @${name}`);
        return (params as Record<string, unknown>)[name];
      }),
  };
}
