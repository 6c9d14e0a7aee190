/** What every contender is given: the same model server, streaming or not, and the same system prompt. */
export interface ContenderSetup {
  url: string;
  stream: boolean;
  systemPrompt: string;
}

/** One way of running the agent loop, measured against the others. */
export interface Contender {
  /** Runs one question to its end; resolves with the final answer text (undefined when it failed). */
  ask(question: string): Promise<string | undefined>;
  close?(): Promise<void>;
}
