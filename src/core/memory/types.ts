/** One completed exchange in a channel: who asked, what, and the final answer. */
export interface Turn {
  author: string;
  question: string;
  answer: string;
}

/** What the agent is shown of a channel's past: the running summary and the recent turns verbatim. */
export interface ConversationContext {
  summary?: string | undefined;
  turns: readonly Turn[];
}
