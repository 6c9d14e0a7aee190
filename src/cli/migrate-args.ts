/** The one-line synopsis of `npm run migrate`. */
export const MIGRATE_SYNOPSIS =
  'usage: npm run migrate -- --from sqlite:<path> [--to postgres://user:password@host:5432/database] (default --to: DATABASE_URL)';

/** What `npm run migrate` was asked for. */
export interface MigrateArgs {
  from?: string;
  to?: string;
  help: boolean;
}

/** The arguments could not be understood; the message says why in a few words, never echoing a URL. */
export class MigrateArgsError extends Error {}

/** Parses the command line (without node and the script); throws a MigrateArgsError. */
export function parseMigrateArgs(argv: readonly string[]): MigrateArgs {
  const args: MigrateArgs = { help: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const inline = eq > 0 ? arg.slice(eq + 1) : undefined;
    switch (name) {
      case '--from':
      case '--to': {
        const value = inline ?? argv[++i];
        if (!value || (inline === undefined && value.startsWith('--'))) {
          throw new MigrateArgsError(`${name} needs a value`);
        }
        if (args[name === '--from' ? 'from' : 'to'] !== undefined)
          throw new MigrateArgsError(`${name} is given twice`);
        args[name === '--from' ? 'from' : 'to'] = value;
        break;
      }
      case '--help':
      case '-h':
        args.help = true;
        break;
      default:
        // Only an option's name is echoed: a stray word may be a URL with a password.
        throw new MigrateArgsError(
          name.startsWith('-') ? `unknown option "${name.slice(0, 40)}"` : 'unexpected argument',
        );
    }
  }
  return args;
}
