/** The one-line synopsis of `npm run eval`. */
export const EVAL_SYNOPSIS =
  'usage: npm run eval -- [--model M] [--protocol react|tools] [--set NAME]… [--recorded] [--min 0.8] [--concurrency N] [--dir evals]';

/** What `npm run eval` was asked for. */
export interface EvalArgs {
  model?: string;
  protocol?: 'react' | 'tools';
  /** Sets to run (file names in `dir` without `.jsonl`); all of them when empty. */
  sets: string[];
  /** Tools answer from the cases' recorded observations instead of running. */
  recorded: boolean;
  /** The pass rate (0 to 1) below which the command exits with 1. */
  min: number;
  /** Cases asked at once. */
  concurrency: number;
  dir: string;
  help: boolean;
}

/** The arguments could not be understood; the message says why, in a few words. */
export class EvalArgsError extends Error {}

/** Parses the command line (without node and the script); throws an EvalArgsError. */
export function parseEvalArgs(argv: readonly string[]): EvalArgs {
  const args: EvalArgs = { sets: [], recorded: false, min: 0, concurrency: 4, dir: 'evals', help: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const at = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const [name, inline] = at > 0 ? [arg.slice(0, at), arg.slice(at + 1)] : [arg, undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined || (inline === undefined && v.startsWith('--')))
        throw new EvalArgsError(`${name} needs a value`);
      return v;
    };
    switch (name) {
      case '--model':
        args.model = value();
        break;
      case '--protocol': {
        const p = value();
        if (p !== 'react' && p !== 'tools')
          throw new EvalArgsError(`--protocol must be react or tools (got "${p}")`);
        args.protocol = p;
        break;
      }
      case '--set':
        args.sets.push(value());
        break;
      case '--dir':
        args.dir = value();
        break;
      case '--min': {
        const v = value();
        const n = Number(v);
        if (v.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1)
          throw new EvalArgsError(`--min must be a pass rate from 0 to 1, e.g. 0.8 (got "${v}")`);
        args.min = n;
        break;
      }
      case '--concurrency': {
        const v = value();
        const n = Number(v);
        if (!Number.isInteger(n) || n < 1 || n > 64)
          throw new EvalArgsError(`--concurrency must be a whole number from 1 to 64 (got "${v}")`);
        args.concurrency = n;
        break;
      }
      case '--recorded':
      case '--help':
      case '-h':
        if (inline !== undefined) throw new EvalArgsError(`${name} takes no value`);
        if (name === '--recorded') args.recorded = true;
        else args.help = true;
        break;
      default:
        throw new EvalArgsError(`unknown argument "${arg}"`);
    }
  }
  return args;
}
