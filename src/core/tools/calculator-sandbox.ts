import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import type { Socket } from 'node:net';
import { ToolError } from '../errors.js';
import {
  CALCULATOR_CHILD_SOURCE,
  type CalculatorChildData,
  type CalculatorReply,
  DISABLED_FUNCTIONS,
} from './calculator-child.js';
import { ToolInputError } from './define-tool.js';

/** Bounds of one calculation. */
export interface SandboxLimits {
  /** Wall time of one evaluation; past it the process is killed, and the next call starts a new one. */
  timeLimitMs: number;
  /** V8 heap of the calculator process; mathjs itself takes about 35 MB of it. */
  memoryLimitMb: number;
  /** How long the process may take to start and load mathjs. */
  startupTimeoutMs: number;
  /** How long the process may sit unused before it is stopped (the next call starts a new one). */
  idleMs: number;
}

/** Runs `stop` once `ms` have passed; returns what cancels it. Injectable so tests need not wait. */
export type IdleTimer = (stop: () => Promise<void>, ms: number) => () => void;

/** How a sandbox is bounded, and how it waits out idle time. */
export type SandboxOptions = Partial<SandboxLimits> & { idleTimer?: IdleTimer };

/** The calculator process's title, as `ps` and `top` show it. */
export const CALCULATOR_TITLE = 'thinkthread-calc';

/** Evaluates mathjs expressions in a separate process with a time and memory bound. */
export interface MathSandbox {
  /** The formatted result; throws a ToolInputError for a bad or too costly expression. */
  evaluate(expression: string, signal?: AbortSignal): Promise<string>;
}

const DEFAULT_LIMITS: SandboxLimits = {
  timeLimitMs: 1000,
  memoryLimitMb: 128,
  startupTimeoutMs: 20_000,
  idleMs: 60_000,
};

const realTimer: IdleTimer = (stop, ms) => {
  const timer = setTimeout(() => void stop(), ms);
  timer.unref();
  return () => clearTimeout(timer);
};

/**
 * Creates a sandbox around one `node` process, started on first use and stopped after `idleMs` unused;
 * evaluations run one at a time, so the time limit measures the expression, not the queue. A deny-list
 * cannot bound `1:1e9` or `ones(1e5, 1e5)`; a heap limit and a timer can. It is a process, not a worker
 * thread, because V8 aborts the whole process when one large allocation overshoots a worker's heap limit.
 */
export function createMathSandbox(options: SandboxOptions = {}): MathSandbox {
  const { idleTimer = realTimer, ...limits } = options;
  const { timeLimitMs, memoryLimitMb, startupTimeoutMs, idleMs } = { ...DEFAULT_LIMITS, ...limits };
  let current: Promise<ChildProcess> | undefined;
  let latest: ChildProcess | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  let pending = 0;
  let cancelIdle: (() => void) | undefined;

  const stopIdle = async () => {
    cancelIdle = undefined;
    const idle = current;
    if (pending > 0 || !idle) return;
    current = undefined;
    const child = await idle.catch(() => undefined);
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise((resolve) => {
      child.once('exit', resolve);
      child.kill();
    });
  };

  const discard = (child: ChildProcess) => {
    if (latest === child) current = undefined;
    child.kill('SIGKILL');
  };

  const start = (): Promise<ChildProcess> => {
    const data: CalculatorChildData = {
      mathjsPath: createRequire(import.meta.url).resolve('mathjs'),
      disabled: DISABLED_FUNCTIONS,
      maxElements: 10_000,
      maxChars: 2000,
    };
    const child = spawn(
      process.execPath,
      [
        `--max-old-space-size=${memoryLimitMb}`,
        `--title=${CALCULATOR_TITLE}`,
        '-e',
        CALCULATOR_CHILD_SOURCE,
        JSON.stringify(data),
      ],
      // No secrets in reach of an expression that escapes mathjs.
      { stdio: ['ignore', 'ignore', 'pipe', 'ipc'], env: {} },
    );
    latest = child;
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-400);
    });
    // An idle calculator must not keep the bot alive (a running job holds its own timer); when the bot
    // exits, the IPC channel closes and the child exits too.
    child.unref();
    child.channel?.unref();
    (child.stderr as Socket | null)?.unref();
    child.on('error', () => {});
    child.once('exit', () => {
      if (latest === child) current = undefined;
    });

    return new Promise<ChildProcess>((resolve, reject) => {
      const settle = (error?: Error) => {
        clearTimeout(timer);
        child.off('message', onReady).off('error', onFail).off('exit', onFail);
        if (!error) return resolve(child);
        discard(child);
        reject(error);
      };
      const onReady = () => settle();
      const onFail = (cause: unknown) => {
        const reason = cause instanceof Error ? cause.message : stderr.trim().split('\n')[0] || 'it exited';
        settle(new ToolError(`The calculator could not start: ${reason}`));
      };
      const timer = setTimeout(
        () => settle(new ToolError('The calculator did not start in time.')),
        startupTimeoutMs,
      );
      child.once('message', onReady).once('error', onFail).once('exit', onFail);
    });
  };

  const run = (child: ChildProcess, expression: string, signal: AbortSignal | undefined): Promise<string> =>
    new Promise<string>((resolve, reject) => {
      const settle = (kill: boolean, finish: () => void) => {
        clearTimeout(timer);
        child.off('message', onMessage).off('exit', onExit);
        signal?.removeEventListener('abort', onAbort);
        if (kill) discard(child);
        finish();
      };
      const onMessage = (reply: CalculatorReply) =>
        settle(false, () =>
          'error' in reply
            ? reject(new ToolInputError(`Could not evaluate the expression: ${reply.error}`))
            : resolve(reply.value),
        );
      // V8 aborts (SIGABRT) when the heap limit is reached.
      const onExit = (_code: number | null, exitSignal: NodeJS.Signals | null) =>
        settle(true, () =>
          reject(
            exitSignal === 'SIGABRT'
              ? new ToolInputError('The calculation needed too much memory and was stopped.')
              : new ToolError('The calculator stopped unexpectedly.'),
          ),
        );
      const onAbort = () => settle(true, () => reject(signal?.reason));
      const timer = setTimeout(
        () =>
          settle(true, () =>
            reject(new ToolInputError(`The calculation took longer than ${timeLimitMs} ms and was stopped.`)),
          ),
        timeLimitMs,
      );
      child.on('message', onMessage).on('exit', onExit);
      signal?.addEventListener('abort', onAbort, { once: true });
      child.send(expression, (err) => {
        if (err) settle(true, () => reject(new ToolError(`The calculator is unavailable: ${err.message}`)));
      });
    });

  return {
    evaluate(expression, signal) {
      pending++;
      cancelIdle?.();
      cancelIdle = undefined;
      const job = queue
        .then(async () => {
          signal?.throwIfAborted();
          current ??= start();
          return run(await current, expression, signal);
        })
        .finally(() => {
          if (--pending === 0 && current) cancelIdle = idleTimer(stopIdle, idleMs);
        });
      queue = job.catch(() => {});
      return job;
    },
  };
}
