/** A chat platform connection (terminal, Discord, Slack) driving an Assistant. */
export interface PlatformAdapter {
  readonly name: string;
  /** Connects and starts handling messages; resolves once ready. */
  start(): Promise<void>;
  /** Disconnects; in-flight answers are finished by the Assistant's own close. */
  stop(): Promise<void>;
}
