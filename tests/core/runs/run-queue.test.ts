import { describe, expect, it } from 'vitest';
import { createRunQueue } from '../../../src/core/runs/run-queue.js';

/** A task that waits until released, recording when it starts. */
function gate(log: string[], name: string) {
  let release!: (value: string) => void;
  let fail!: (err: Error) => void;
  const done = new Promise<string>((resolve, reject) => {
    release = resolve;
    fail = reject;
  });
  return {
    task: () => {
      log.push(name);
      return done;
    },
    release: () => release(name),
    fail: (err: Error) => fail(err),
  };
}

const flush = () => new Promise<void>((r) => setImmediate(r));

describe('run queue', () => {
  it('runs tasks of one key one at a time in arrival order', async () => {
    const queue = createRunQueue({ MAX_CONCURRENT_RUNS: 4, MAX_QUEUED_PER_CHANNEL: 5 });
    const log: string[] = [];
    const gates = ['a', 'b', 'c'].map((n) => gate(log, n));
    const results = gates.map((g) => queue.run('k', g.task));
    await flush();
    expect(log).toEqual(['a']);
    gates[0]!.release();
    await flush();
    expect(log).toEqual(['a', 'b']);
    gates[1]!.release();
    gates[2]!.release();
    expect(await Promise.all(results)).toEqual([
      { status: 'done', value: 'a' },
      { status: 'done', value: 'b' },
      { status: 'done', value: 'c' },
    ]);
    expect(log).toEqual(['a', 'b', 'c']);
  });

  it('runs different keys concurrently, up to MAX_CONCURRENT_RUNS', async () => {
    const queue = createRunQueue({ MAX_CONCURRENT_RUNS: 2, MAX_QUEUED_PER_CHANNEL: 5 });
    const log: string[] = [];
    const gates = ['k1', 'k2', 'k3'].map((n) => gate(log, n));
    const results = gates.map((g, i) => queue.run(`key${i}`, g.task));
    await flush();
    expect(log).toEqual(['k1', 'k2']);
    expect(queue.size()).toBe(3);
    gates[1]!.release();
    await flush();
    expect(log).toEqual(['k1', 'k2', 'k3']);
    gates[0]!.release();
    gates[2]!.release();
    await Promise.all(results);
    expect(queue.size()).toBe(0);
  });

  it('answers busy at once when a key already has MAX_QUEUED_PER_CHANNEL waiting', async () => {
    const queue = createRunQueue({ MAX_CONCURRENT_RUNS: 4, MAX_QUEUED_PER_CHANNEL: 2 });
    const log: string[] = [];
    const gates = ['a', 'b', 'c', 'd'].map((n) => gate(log, n));
    const results = gates.map((g) => queue.run('k', g.task));
    // Another key is unaffected.
    const other = gate(log, 'other');
    const otherResult = queue.run('k2', other.task);
    expect(await results[3]).toEqual({ status: 'busy' });
    await flush();
    expect(log).toEqual(['a', 'other']);
    for (const g of [...gates, other]) g.release();
    expect((await Promise.all(results.slice(0, 3))).map((r) => r.status)).toEqual(['done', 'done', 'done']);
    expect(await otherResult).toEqual({ status: 'done', value: 'other' });
    expect(log).not.toContain('d');
  });

  it('with MAX_QUEUED_PER_CHANNEL 0, runs one at a time per key and refuses the rest', async () => {
    const queue = createRunQueue({ MAX_CONCURRENT_RUNS: 4, MAX_QUEUED_PER_CHANNEL: 0 });
    const log: string[] = [];
    const a = gate(log, 'a');
    const first = queue.run('k', a.task);
    expect(await queue.run('k', gate(log, 'b').task)).toEqual({ status: 'busy' });
    a.release();
    expect(await first).toEqual({ status: 'done', value: 'a' });
  });

  it('drops a waiting task whose signal aborts; it never runs and the next one moves up', async () => {
    const queue = createRunQueue({ MAX_CONCURRENT_RUNS: 4, MAX_QUEUED_PER_CHANNEL: 5 });
    const log: string[] = [];
    const [a, b, c] = ['a', 'b', 'c'].map((n) => gate(log, n));
    const abort = new AbortController();
    const ra = queue.run('k', a!.task);
    const rb = queue.run('k', b!.task, abort.signal);
    const rc = queue.run('k', c!.task);
    abort.abort();
    expect(await rb).toEqual({ status: 'cancelled' });
    a!.release();
    await flush();
    expect(log).toEqual(['a', 'c']);
    c!.release();
    expect((await Promise.all([ra, rc])).map((r) => r.status)).toEqual(['done', 'done']);
  });

  it('drops a task waiting for a free slot when its signal aborts', async () => {
    const queue = createRunQueue({ MAX_CONCURRENT_RUNS: 1, MAX_QUEUED_PER_CHANNEL: 5 });
    const log: string[] = [];
    const [a, b, c] = ['a', 'b', 'c'].map((n) => gate(log, n));
    const abort = new AbortController();
    const ra = queue.run('k1', a!.task);
    const rb = queue.run('k2', b!.task, abort.signal);
    const rc = queue.run('k2', c!.task);
    abort.abort();
    expect(await rb).toEqual({ status: 'cancelled' });
    a!.release();
    await flush();
    expect(log).toEqual(['a', 'c']);
    c!.release();
    await Promise.all([ra, rc]);
    await queue.idle();
  });

  it('does not start a task whose signal already aborted', async () => {
    const queue = createRunQueue({ MAX_CONCURRENT_RUNS: 1, MAX_QUEUED_PER_CHANNEL: 5 });
    const log: string[] = [];
    expect(await queue.run('k', gate(log, 'a').task, AbortSignal.abort())).toEqual({ status: 'cancelled' });
    expect(log).toEqual([]);
  });

  it('passes a failing task on and keeps the key going', async () => {
    const queue = createRunQueue({ MAX_CONCURRENT_RUNS: 1, MAX_QUEUED_PER_CHANNEL: 5 });
    const log: string[] = [];
    const [a, b] = ['a', 'b'].map((n) => gate(log, n));
    const ra = queue.run('k', a!.task);
    const rb = queue.run('k', b!.task);
    const thrower = queue.run('k2', () => {
      throw new Error('sync throw');
    });
    a!.fail(new Error('boom'));
    await expect(ra).rejects.toThrow('boom');
    await expect(thrower).rejects.toThrow('sync throw');
    b!.release();
    expect(await rb).toEqual({ status: 'done', value: 'b' });
  });

  it('idle resolves once everything running and waiting has finished', async () => {
    const queue = createRunQueue({ MAX_CONCURRENT_RUNS: 1, MAX_QUEUED_PER_CHANNEL: 5 });
    await queue.idle();
    const log: string[] = [];
    const [a, b] = ['a', 'b'].map((n) => gate(log, n));
    void queue.run('k', a!.task);
    void queue.run('k', b!.task);
    let idle = false;
    const waiting = queue.idle().then(() => {
      idle = true;
    });
    a!.release();
    await flush();
    expect(idle).toBe(false);
    b!.release();
    await waiting;
    expect(log).toEqual(['a', 'b']);
  });
});
