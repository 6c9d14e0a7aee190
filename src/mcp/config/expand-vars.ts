/** The outcome of expanding `${VAR}` references in one string. */
export interface Expansion {
  text: string;
  /** The values substituted in, so they can be treated as secrets where it matters. */
  substituted: string[];
  /** One sentence per reference that could not be expanded. */
  problems: string[];
}

const REFERENCE = /\$\{([^}]*)\}/g;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Expands `${VAR}` (and `${VAR:-default}`) from `env`, as in Claude Desktop and Cursor configs. An unset or
 * empty variable without a default is a problem, not an empty string: a server missing its token would
 * only fail later and less clearly.
 */
export function expandVars(text: string, env: Readonly<Record<string, string | undefined>>): Expansion {
  const substituted: string[] = [];
  const problems: string[] = [];
  const expanded = text.replace(REFERENCE, (whole, inner: string) => {
    const [name = '', fallback] = splitDefault(inner);
    if (!NAME.test(name)) {
      problems.push(`${whole} is not a variable reference; write \${NAME} with letters, digits and _`);
      return whole;
    }
    const value = env[name];
    if (value !== undefined && value !== '') {
      substituted.push(value);
      return value;
    }
    if (fallback !== undefined) return fallback;
    problems.push(`${name} is not set (used as ${whole}); set it in .env or the environment`);
    return whole;
  });
  return { text: expanded, substituted, problems };
}

function splitDefault(inner: string): [string, string | undefined] {
  const at = inner.indexOf(':-');
  return at < 0 ? [inner.trim(), undefined] : [inner.slice(0, at).trim(), inner.slice(at + 2)];
}
