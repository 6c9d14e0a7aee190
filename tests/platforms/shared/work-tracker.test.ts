import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/core/logger.js';
import { createWorkTracker } from '../../../src/platforms/shared/work-tracker.js';

const logger = createLogger({ level: 'silent', secrets: [] });

describe('the work tracker', () => {
  it('on drain, lets work that finishes within the grace period finish uncancelled', async () => {
    const work = createWorkTracker(logger);
    let release: () => void = () => {};
    let started: () => void = () => {};
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    let sawAbort: boolean | undefined;
    work.run('a run', async (signal) => {
      await new Promise<void>((resolve) => {
        release = resolve;
        started();
      });
      sawAbort = signal.aborted;
    });
    await running;
    const drained = work.drain(60_000);
    release();
    await drained;
    expect(sawAbort).toBe(false);
    expect(work.signal.aborted).toBe(false);
  });

  it('on drain, cancels work still going after the grace period and waits for it to wind up', async () => {
    const work = createWorkTracker(logger);
    let woundUp = false;
    work.run('a stuck run', async (signal) => {
      await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()));
      woundUp = true;
    });
    await work.drain(10);
    expect(work.signal.aborted).toBe(true);
    expect(woundUp).toBe(true);
  });

  it('counts work started while waiting, and survives a task that throws', async () => {
    const work = createWorkTracker(logger);
    let second = false;
    work.run('first', async () => {
      work.run('second', async () => {
        await Promise.resolve();
        second = true;
      });
      throw new Error('boom');
    });
    await work.idle();
    expect(second).toBe(true);
  });
});
