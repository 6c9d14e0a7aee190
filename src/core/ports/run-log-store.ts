/** Each run's steps, model calls and tool calls, kept for the admin page for RUN_LOG_RETENTION_DAYS. */
export type RunLogStore = Record<never, never>;
