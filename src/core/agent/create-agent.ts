import type { Config } from '../../config.js';
import type { ChatModel } from '../llm/types.js';
import type { Logger } from '../logger.js';
import type { PromptSet } from '../prompts.js';
import type { Tool } from '../tools/define-tool.js';
import type { Agent } from './types.js';

/** Settings of the loop, named as in the configuration. */
export type AgentSettings = Pick<
  Config,
  'AGENT_PROTOCOL' | 'AGENT_MAX_STEPS' | 'TOOL_TIMEOUT_MS' | 'TOOL_CONCURRENCY' | 'RUN_TIMEOUT_MS'
> & { DEFAULT_TIMEZONE?: string | undefined };

/** What the agent loop needs. */
export interface AgentDeps {
  model: ChatModel;
  tools: readonly Tool[];
  prompts: PromptSet;
  settings: AgentSettings;
  logger?: Logger;
  now?: () => Date;
}

/** Creates the ReAct agent for the configured protocol. */
export function createAgent(_deps: AgentDeps): Agent {
  throw new Error('not implemented yet');
}
