/** Stable machine-readable error codes shared by the core and the adapters. */
export type ErrorCode =
  | 'config'
  | 'model_unavailable'
  | 'model_error'
  | 'invalid_output'
  | 'timeout'
  | 'cancelled'
  | 'storage'
  | 'busy'
  | 'refused'
  | 'limited'
  | 'invalid_input'
  | 'tool_input'
  | 'tool_error'
  | 'service_error'
  | 'internal';

/** Base class of every error thinkthread raises on purpose. */
export class ThinkthreadError extends Error {
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

/** One or more settings are missing or malformed; `problems` lists each one. */
export class ConfigError extends ThinkthreadError {
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    super('config', `Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.problems = problems;
  }
}

/** The model endpoint failed after retries, or answered with something unusable. */
export class ModelError extends ThinkthreadError {
  readonly status: number | undefined;
  /** Whether trying again soon may help (else the message says what to fix). */
  readonly retryLater: boolean;

  constructor(
    code: 'model_unavailable' | 'model_error',
    message: string,
    status?: number,
    cause?: unknown,
    retryLater = code === 'model_unavailable',
  ) {
    super(code, message, { cause });
    this.status = status;
    this.retryLater = retryLater;
  }
}

/** The persistent store could not be opened, read or written. */
export class StorageError extends ThinkthreadError {
  constructor(message: string, cause?: unknown) {
    super('storage', message, { cause });
  }
}

/** The database itself is gone while the bot runs (its file deleted, its schema dropped): only a restart helps. */
export class StorageLostError extends StorageError {}

/**
 * A tool could not do what the model asked; the message is written for the model (it becomes the
 * Observation) and must never carry a secret. Tool errors never end a run.
 */
export class ToolError extends ThinkthreadError {
  constructor(message: string, code: 'tool_input' | 'tool_error' | 'service_error' = 'tool_error') {
    super(code, message);
  }
}

/** True when `err` is an abort raised through an AbortSignal. */
export function isAbortError(err: unknown): boolean {
  return (
    err instanceof Error &&
    (err.name === 'AbortError' || err.name === 'APIUserAbortError' || err.name === 'TimeoutError')
  );
}

/**
 * The reason runs are cancelled with when the bot shuts down: tool calls they wait on stay kept for the next
 * start (a press then goes on with the run), rather than ending as stopped.
 */
export class ShutdownAbort extends Error {
  override name = 'AbortError';
  constructor() {
    super('the bot is shutting down');
  }
}

/** The thread a question was asked in could not be read (e.g. a missing permission); the message is for the asker. */
export class ContextUnavailableError extends ThinkthreadError {
  constructor(message: string, cause?: unknown) {
    super('service_error', message, { cause });
  }
}
