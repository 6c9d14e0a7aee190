import { isDay } from './calendar.js';

/** The one-line synopsis of `npm run usage`. */
export const USAGE_SYNOPSIS =
  'usage: npm run usage -- [--since YYYY-MM-DD] [--until YYYY-MM-DD] [--by user|channel|day] [--approvals] [--csv]';

/** What `npm run usage` was asked for; days are calendar days, `until` inclusive. */
export interface UsageArgs {
  since?: string;
  until?: string;
  by: 'user' | 'channel' | 'day';
  csv: boolean;
  /** List the decisions on tool calls that waited for approval instead of the usage table. */
  approvals: boolean;
  help: boolean;
}

/** The arguments could not be understood; the message says why, in a few words. */
export class UsageArgsError extends Error {}

const BY = ['user', 'channel', 'day'] as const;

/** Parses the command line (without node and the script); throws a UsageArgsError. */
export function parseUsageArgs(argv: readonly string[]): UsageArgs {
  const args: UsageArgs = { by: 'user', csv: false, approvals: false, help: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [name, inline] = arg.startsWith('--') && arg.includes('=') ? splitOnce(arg) : [arg, undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined || (inline === undefined && v.startsWith('--'))) {
        throw new UsageArgsError(`${name} needs a value`);
      }
      return v;
    };
    switch (name) {
      case '--since':
      case '--until': {
        const day = value();
        if (!isDay(day)) throw new UsageArgsError(`${name} must be a day written YYYY-MM-DD (got "${day}")`);
        args[name === '--since' ? 'since' : 'until'] = day;
        break;
      }
      case '--by': {
        const by = value();
        if (!BY.includes(by as never))
          throw new UsageArgsError(`--by must be user, channel or day (got "${by}")`);
        args.by = by as UsageArgs['by'];
        break;
      }
      case '--csv':
      case '--approvals':
      case '--help':
      case '-h':
        if (inline !== undefined) throw new UsageArgsError(`${name} takes no value`);
        if (name === '--csv') args.csv = true;
        else if (name === '--approvals') args.approvals = true;
        else args.help = true;
        break;
      default:
        throw new UsageArgsError(`unknown argument "${arg}"`);
    }
  }
  if (args.since && args.until && args.since > args.until) {
    throw new UsageArgsError(`--since ${args.since} is after --until ${args.until}`);
  }
  return args;
}

function splitOnce(arg: string): [string, string] {
  const at = arg.indexOf('=');
  return [arg.slice(0, at), arg.slice(at + 1)];
}
