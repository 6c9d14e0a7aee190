import type { ChatModel } from '../llm/types.js';
import type { Logger } from '../logger.js';
import type { ToolSource } from '../ports/tool-source.js';
import type { PromptSet } from '../prompts.js';
import type { Tool } from '../tools/define-tool.js';
import type { PromptNotes } from './build-messages.js';
import type { StopCondition } from './stop-conditions.js';

/** Settings of the loop, named as in the configuration. */
export interface AgentSettings {
  /** `tools`: the model's native tool calls; `react`: Thought/Action/Observation text. */
  AGENT_PROTOCOL: 'tools' | 'react';
  /** Model calls one run may make; the last one must answer. */
  AGENT_MAX_STEPS: number;
  /** Longest one tool call may take; past it the model is told it timed out. */
  TOOL_TIMEOUT_MS: number;
  /** Tool calls of one step run at once. */
  TOOL_CONCURRENCY: number;
  /** Longest a whole run may take. */
  RUN_TIMEOUT_MS: number;
  /** Longest answer delivered or remembered, in characters; a longer one is cut with a note. */
  ANSWER_MAX_CHARS: number;
  /** The model's reasoning (`reasoning_content`, `<think>` blocks) is shown as Thought steps; default true. */
  SHOW_REASONING?: boolean | undefined;
  /** The zone the time now is given to the model in ("tomorrow at 9"); the system's own when unset. */
  DEFAULT_TIMEZONE?: string | undefined;
}

/** What the agent loop needs. */
export interface AgentDeps {
  model: ChatModel;
  /** A fixed list, or a source read at the start of each run (tools that come and go). */
  tools: readonly Tool[] | ToolSource;
  prompts: PromptSet;
  settings: AgentSettings;
  logger?: Logger;
  /** Scrubs secrets from tool output and error text. */
  redact?: (text: string) => string;
  now?: () => Date;
  /** What bounds the loop; default `[maxSteps(AGENT_MAX_STEPS)]`. */
  stopConditions?: readonly StopCondition[];
  /** The model sees images (LLM_VISION): those tools return are shown to it after their observations. */
  vision?: boolean | undefined;
  /**
   * The notes kept for a conversation and its asker, as one prompt text within its budget (see
   * memory/notes-prompt.ts); placed after the base prompt and the channel's instructions. None when unset.
   */
  notes?: ((key: string, principal: string | undefined) => Promise<PromptNotes | undefined>) | undefined;
}
