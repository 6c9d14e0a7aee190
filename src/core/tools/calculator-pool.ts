import { createMathSandbox, type MathSandbox, type SandboxOptions } from './calculator-sandbox.js';

interface Member {
  sandbox: MathSandbox;
  busy: boolean;
}

/**
 * Up to `size` calculator processes behind one MathSandbox: an expression goes to the first free one, or
 * waits (first come, first served) for one to be free, so a costly expression holds one process, not every
 * channel. A process starts when an expression first needs it and stops when idle; each keeps the
 * per-expression time and memory limits.
 */
export function createMathPool(size: number, options: SandboxOptions = {}): MathSandbox {
  const members: Member[] = Array.from({ length: Math.max(1, size) }, () => ({
    sandbox: createMathSandbox(options),
    busy: false,
  }));
  const waiting: ((member: Member) => void)[] = [];

  const acquire = (): Promise<Member> | Member => {
    const free = members.find((m) => !m.busy);
    if (!free) return new Promise<Member>((resolve) => waiting.push(resolve));
    free.busy = true;
    return free;
  };
  const release = (member: Member) => {
    const next = waiting.shift();
    if (next) next(member);
    else member.busy = false;
  };

  return {
    async evaluate(expression, signal) {
      // A free process is taken at once, so the idle stop a call cancels cannot fire in between.
      const got = acquire();
      const member = got instanceof Promise ? await got : got;
      try {
        return await member.sandbox.evaluate(expression, signal);
      } finally {
        release(member);
      }
    },
  };
}
