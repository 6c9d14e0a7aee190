import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { calculatorTool } from '../../../src/core/tools/calculator.js';
import { createMathPool } from '../../../src/core/tools/calculator-pool.js';
import { CALCULATOR_TITLE, type IdleTimer } from '../../../src/core/tools/calculator-sandbox.js';

/** This test process's calculator children, as `ps` shows them. */
async function calculators(): Promise<string[]> {
  const { stdout } = await promisify(execFile)('ps', [
    '-o',
    'pid=,args=',
    '--ppid',
    String(process.pid),
  ]).catch(
    // ps exits 1 when the process has no children at all.
    (err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }),
  );
  return stdout
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.endsWith(` ${CALCULATOR_TITLE}`));
}

/** An idle timer the test fires by hand. */
function handTimer() {
  const armed: { stop: () => Promise<void>; ms: number; cancelled: boolean }[] = [];
  const timer: IdleTimer = (stop, ms) => {
    const entry = { stop, ms, cancelled: false };
    armed.push(entry);
    return () => {
      entry.cancelled = true;
    };
  };
  const live = () => armed.filter((a) => !a.cancelled);
  return { timer, live };
}

describe('calculator processes', () => {
  it('start on first use, stop when idle, and start again for the next calculation', async () => {
    // The bot makes its tools at start: that alone starts no calculator.
    calculatorTool({ CALCULATOR_WORKERS: 2 });
    expect(await calculators()).toEqual([]);

    const idle = handTimer();
    const pool = createMathPool(2, { idleTimer: idle.timer });
    expect(await calculators()).toEqual([]);
    expect(await pool.evaluate('6 * 7')).toBe('42');
    // One calculation needs one process, under a short title rather than its whole script.
    expect(await calculators()).toEqual([expect.stringMatching(new RegExp(`^\\d+ ${CALCULATOR_TITLE}$`))]);
    expect(await pool.evaluate('2 ^ 10')).toBe('1024');
    expect(idle.live()).toHaveLength(1);
    expect(idle.live()[0]!.ms).toBe(60_000);

    await idle.live()[0]!.stop();
    expect(await calculators()).toEqual([]);
    expect(await pool.evaluate('5 km to mile')).toBe('3.1068559611867 mile');
    expect(await calculators()).toHaveLength(1);
    await idle.live()[0]!.stop();
    expect(await calculators()).toEqual([]);
  });

  it('is not stopped while a calculation waits or runs', async () => {
    const idle = handTimer();
    const pool = createMathPool(1, { idleTimer: idle.timer });
    expect(await pool.evaluate('1 + 1')).toBe('2');
    const armed = idle.live()[0]!;
    const next = pool.evaluate('3 * 3');
    // The next calculation cancelled the idle stop; one firing late anyway leaves the process alone.
    expect(idle.live()).toEqual([]);
    await armed.stop();
    expect(await next).toBe('9');
    expect(await calculators()).toHaveLength(1);
    await idle.live()[0]!.stop();
    expect(await calculators()).toEqual([]);
  });
});
