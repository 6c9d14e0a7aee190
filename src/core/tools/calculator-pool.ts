import { createMathSandbox, type MathSandbox, type SandboxLimits } from './calculator-sandbox.js';

interface Member {
  sandbox: MathSandbox;
  busy: boolean;
}

/**
 * `size` calculator processes behind one MathSandbox: an expression goes to a free one, or waits (first come,
 * first served) for the first to be free, so a costly expression holds one process, not every channel.
 * Each process keeps the per-expression time and memory limits.
 */
export function createMathPool(size: number, limits: Partial<SandboxLimits> = {}): MathSandbox {
  const members: Member[] = Array.from({ length: Math.max(1, size) }, () => ({
    sandbox: createMathSandbox(limits),
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
    warm() {
      for (const member of members) member.sandbox.warm();
    },
    async evaluate(expression, signal) {
      const member = await acquire();
      try {
        return await member.sandbox.evaluate(expression, signal);
      } finally {
        release(member);
      }
    },
  };
}
