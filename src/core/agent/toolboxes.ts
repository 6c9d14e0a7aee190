import type { ChatModel } from '../llm/types.js';
import type { ToolSource } from '../ports/tool-source.js';
import { toolNamesInForce } from '../settings/select-tools.js';
import type { Tool } from '../tools/define-tool.js';
import { RECALL_PROMPT, RECALL_TOOL } from '../tools/recall.js';
import { KNOWLEDGE_PROMPT, KNOWLEDGE_TOOL } from '../tools/search-knowledge.js';
import type { AgentDeps } from './agent-deps.js';
import { formatDate } from './prompt-clock.js';
import type { Protocol } from './protocol.js';
import { createReactProtocol } from './react-protocol.js';
import { createToolsProtocol } from './tools-protocol.js';
import type { RunProfile } from './types.js';

/** Channel setups whose rendered prompts are kept at once; past it they are rendered afresh. */
const MAX_TOOLBOXES = 64;

/** The tools of one version and one channel setup, and what is derived from them. */
export interface Toolbox {
  protocol: Protocol;
  toolsByName: ReadonlyMap<string, Tool>;
  system: string;
}

/** The model under another name for every request (a channel's `model` setting). */
function withModel(model: ChatModel, name: string): ChatModel {
  return { complete: (request) => model.complete({ ...request, model: name }) };
}

/** What the toolboxes are made from: the model, prompts and settings, the tools' source and the clock. */
export type ToolboxDeps = Pick<AgentDeps, 'model' | 'prompts' | 'settings'> & {
  source: ToolSource;
  now: () => Date;
};

/**
 * The toolbox of each run, by its channel setup: the tools in force, the protocol over the model, and the
 * system prompt. Rendered once per day, per change of the tools and per channel setup, not per run, so the
 * prompt's prefix stays cacheable.
 */
export function createToolboxes(deps: ToolboxDeps): (profile?: RunProfile) => Toolbox {
  const { settings, source, now } = deps;
  const makeProtocol = (protocol: 'tools' | 'react', model: ChatModel, tools: readonly Tool[]): Protocol =>
    protocol === 'react'
      ? createReactProtocol(model, tools, deps.prompts)
      : createToolsProtocol(model, tools, deps.prompts);
  const toolbox = (profile: RunProfile | undefined, date: string): Toolbox => {
    const names = toolNamesInForce(source.groups(), profile?.tools);
    const tools = names ? source.current().filter((t) => names.has(t.name)) : source.current();
    const protocol = makeProtocol(
      profile?.protocol ?? settings.AGENT_PROTOCOL,
      profile?.model ? withModel(deps.model, profile.model) : deps.model,
      tools,
    );
    // Said only when their tool is in force, so the base prompt is unchanged without it.
    const extras = [
      tools.some((t) => t.name === RECALL_TOOL) ? deps.prompts[RECALL_PROMPT] : undefined,
      tools.some((t) => t.name === KNOWLEDGE_TOOL) ? deps.prompts[KNOWLEDGE_PROMPT] : undefined,
    ].filter((p): p is string => p !== undefined);
    const base = protocol.systemPrompt(date);
    return {
      protocol,
      toolsByName: new Map(tools.map((t) => [t.name, t])),
      system: extras.length > 0 ? [base.trimEnd(), ...extras.map((p) => p.trim())].join('\n\n') : base,
    };
  };
  const toolboxes = new Map<string, Toolbox>();
  let stamp = '';
  return (profile?: RunProfile): Toolbox => {
    const date = formatDate(now());
    const current = `${source.version()}|${date}`;
    if (current !== stamp) {
      toolboxes.clear();
      stamp = current;
    }
    const key = [profile?.protocol ?? '', profile?.model ?? '', profile?.tools?.join(' ') ?? '*'].join('\0');
    let box = toolboxes.get(key);
    if (!box) {
      if (toolboxes.size >= MAX_TOOLBOXES) toolboxes.clear();
      box = toolbox(profile, date);
      toolboxes.set(key, box);
    }
    return box;
  };
}
