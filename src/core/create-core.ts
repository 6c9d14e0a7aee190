import type { AgentSettings } from './agent/agent-deps.js';
import { createAgent } from './agent/create-agent.js';
import type { AgentEventHandler } from './agent/events.js';
import type { Agent } from './agent/types.js';
import type { ApprovalSettings } from './approvals/approval-policy.js';
import type { Approvals } from './approvals/approvals.js';
import { createApprovalsCommand } from './approvals/approvals-command.js';
import { createApprovals } from './approvals/create-approvals.js';
import type { Assistant } from './assistant.js';
import { createThreadFollows, type FollowSettings, type ThreadFollows } from './follow/thread-follows.js';
import { createGovernor, type GovernanceSettings } from './governance/governor.js';
import type { InputSettings } from './input/types.js';
import { type KnowledgeOptions, knowledgeTools, withKnowledge } from './knowledge/with-knowledge.js';
import { createModelChains, type FallbackSettings } from './llm/create-model-chains.js';
import type { ModelFallbackObserver } from './llm/fallback-model.js';
import { fallbackNotice, listenForAnswers, reportingAnswers } from './llm/model-answers.js';
import type { OpenAIChatModelOptions } from './llm/openai-chat-model.js';
import type { TokenUsage } from './llm/types.js';
import type { Logger } from './logger.js';
import { createChannelMemory } from './memory/channel-memory.js';
import { createMemoryCommands } from './memory/memory-commands.js';
import { createNotesPrompt } from './memory/notes-prompt.js';
import { startRetention } from './memory/retention.js';
import { createSummarizer } from './memory/summarizer.js';
import type { MemoryBudget, RecallSettings } from './memory/types.js';
import type { ApprovalStore } from './ports/approval-store.js';
import type { ApprovalWaitStore } from './ports/approval-wait-store.js';
import type { ArchiveStore } from './ports/archive-store.js';
import type { ChannelSettingsStore } from './ports/channel-settings-store.js';
import type { ConversationStore } from './ports/conversation-store.js';
import type { FeedbackStore } from './ports/feedback-store.js';
import type { NotesStore } from './ports/notes-store.js';
import type { RunLogStore } from './ports/run-log-store.js';
import type { RunObserver } from './ports/run-observer.js';
import type { RunQueue } from './ports/run-queue.js';
import type { ScheduleStore } from './ports/schedule-store.js';
import type { ThreadFollowStore } from './ports/thread-follow-store.js';
import { combineTools, fixedTools, mapTools, type ToolSource } from './ports/tool-source.js';
import type { UsageStore } from './ports/usage-store.js';
import { loadPrompts } from './prompts.js';
import { createAssistant } from './runs/create-assistant.js';
import { startRunLogRetention } from './runs/run-log-retention.js';
import { createRunQueue, type RunQueueLimits } from './runs/run-queue.js';
import { createScheduler, type Scheduler } from './schedules/create-scheduler.js';
import { createRunPlaces } from './schedules/run-places.js';
import { runScheduleCommand } from './schedules/schedule-commands.js';
import { createScheduleService } from './schedules/schedule-service.js';
import type { ScheduleSettings } from './schedules/schedule-settings.js';
import { createSettingsService } from './settings/settings-service.js';
import type { Tool } from './tools/define-tool.js';
import { createRecallTool } from './tools/recall.js';
import { createTools, type ToolSettings } from './tools/registry.js';
import { createRememberTool } from './tools/remember.js';
import { createScheduleTool } from './tools/schedule.js';

/** The platform-neutral core: everything an adapter needs. */
export interface Core {
  assistant: Assistant;
  /** Fires scheduled questions once the platforms are up (`start`); absent when schedules are not kept. */
  schedules?: Scheduler | undefined;
  /**
   * Tool calls waiting for a person: once the platforms are up (`start`, with their deliverers), runs whose
   * process stopped while a call waited go on here once decided; absent when no approvals are kept.
   */
  approvals?: Pick<Approvals, 'start' | 'stop' | 'sweep'> | undefined;
  /** Threads the bot answered in, whose follow-ups it answers without a mention; absent when not kept. */
  follows?: ThreadFollows | undefined;
  /** Finishes work in flight (runs, memory compression); the store stays open for whoever opened it. */
  close(): Promise<void>;
}

/** Everything the core is built from: small typed settings plus the store and logger the root made. */
export interface CoreOptions {
  /** The chat model the agent talks to. */
  model: OpenAIChatModelOptions;
  /** The model that writes memory summaries, on the same endpoint; `model.model` when unset. */
  summaryModel?: string | undefined;
  /**
   * LLM_FALLBACK: endpoints tried in order when the one before is unavailable (see createFallbackModel), for
   * the agent and the summaries alike; only `model` when unset.
   */
  fallback?: FallbackSettings | undefined;
  /** The clock the fallback endpoints' circuit breakers measure their cooldown on; Date.now when unset. */
  now?: (() => number) | undefined;
  /** LLM_MODELS: the models a channel's settings may pick, on the same endpoint (`model.model` always may). */
  models?: readonly string[] | undefined;
  agent: AgentSettings;
  tools: ToolSettings;
  /** Tools beyond the built-in ones, e.g. from MCP servers; they may come and go while the bot runs. */
  toolSources?: readonly ToolSource[] | undefined;
  /** Stands in for how every tool runs (evals replaying recorded observations); the tools as they are when unset. */
  wrapTool?: ((tool: Tool) => Tool) | undefined;
  memory: MemoryBudget;
  /**
   * The channel's archive of past turns and its notes (the `recall` and `remember` tools, `/memory notes`),
   * usually the same database as `store`; without it neither tool exists.
   */
  recall?: { store: ArchiveStore & NotesStore; settings: RecallSettings } | undefined;
  /**
   * Scheduled questions (the `schedule` tool, `/schedule`): where they are kept (usually the same database as
   * `store`) and their settings; `now` and `pollMs` let tests move time and fire by hand. None when unset.
   */
  schedules?:
    | {
        store: ScheduleStore;
        settings: ScheduleSettings;
        now?: (() => number) | undefined;
        pollMs?: number | undefined;
        owner?: string | undefined;
      }
    | undefined;
  /** Budgets of thread context and attachments, and whether the model sees images; defaults when unset. */
  input?: InputSettings | undefined;
  runs: RunQueueLimits;
  /** The per-channel line shared by replicas (Postgres); one in memory, from `runs`, when unset. */
  runQueue?: RunQueue | undefined;
  /** Folder of the prompt templates. */
  promptsDir: string;
  /** Where conversations persist; closing it is left to the caller, after `Core.close()`. */
  store: ConversationStore;
  /** Where usage is recorded and limits are counted (usually the same database as `store`). */
  usage: UsageStore;
  /** Where per-channel settings are kept (usually the same database as `store`). */
  settings: ChannelSettingsStore;
  /** Where votes on answers are kept (usually the same database as `store`). */
  feedback?: FeedbackStore | undefined;
  /** Access lists, limits, budgets and prices. */
  governance: GovernanceSettings;
  /**
   * Where each run's steps are kept for the admin page, for RUN_LOG_RETENTION_DAYS (`days`; 0 keeps none and
   * drops any left from before); none are kept when unset.
   */
  runLogs?: { store: RunLogStore; days: number } | undefined;
  /**
   * Where documents' passages are kept and how `search_knowledge` reads them (KNOWLEDGE_DIR set, or files
   * shared in channels kept); without it the tool does not exist.
   */
  knowledge?: KnowledgeOptions | undefined;
  /** Where followed threads are kept and FOLLOW_THREADS / FOLLOW_IDLE; without it only mentions are answered. */
  follows?: { store: ThreadFollowStore; settings: FollowSettings; now?: () => number } | undefined;
  /**
   * Tool calls that wait for a person (APPROVERS, APPROVAL_TIMEOUT_MS, APPROVAL_DEFAULT_MCP) and where the
   * decisions and per-channel grants are kept; without it every call runs at once.
   */
  approvals?:
    | {
        settings: ApprovalSettings;
        store?: ApprovalStore | undefined;
        /** Where waiting calls are kept (decided from any replica, resumed after a restart). */
        waits?: ApprovalWaitStore | undefined;
        /** How often waiting calls are looked after (ms); tests shorten it. */
        beatMs?: number | undefined;
        staleMs?: number | undefined;
      }
    | undefined;
  /** Told of every governed question as it ends, and of every model request a fallback answered (metrics). */
  observer?: (RunObserver & ModelFallbackObserver) | undefined;
  logger: Logger;
  /** Scrubs secrets from tool output and error text before the model or the logs see them. */
  redact: (text: string) => string;
}

/** Builds the core: model client, tools, prompts, agent, memory on the given store, and the assistant. */
export async function createCore(options: CoreOptions): Promise<Core> {
  const { store, logger } = options;
  const prompts = loadPrompts(options.promptsDir);
  const recall = options.recall;
  // The memory tools are built-ins: /tools lists them with the others, /settings tools can leave them out.
  const memoryTools = recall
    ? [
        createRecallTool({ archive: recall.store, maxTokens: recall.settings.RECALL_MAX_TOKENS }),
        createRememberTool({ notes: recall.store }),
      ]
    : [];
  const runPlaces = createRunPlaces();
  // Set once the governor exists; the scheduler and the tool are built with the other tools, before it.
  let governorRef: ReturnType<typeof createGovernor> | undefined;
  const scheduling = options.schedules;
  const scheduler = scheduling
    ? createScheduler({
        store: scheduling.store,
        allowed: async (asker, key) => (await governorRef?.access(asker, key))?.allowed ?? true,
        catchUpMs: scheduling.settings.SCHEDULE_CATCH_UP_MS,
        logger,
        now: scheduling.now,
        pollMs: scheduling.pollMs,
        owner: scheduling.owner,
      })
    : undefined;
  const scheduleService =
    scheduling && scheduler
      ? createScheduleService({
          store: scheduling.store,
          settings: scheduling.settings,
          isAdmin: async (asker) => (await governorRef?.isAdmin(asker)) ?? false,
          allowed: async (asker, key) => (await governorRef?.access(asker, key))?.allowed ?? true,
          delivers: (platform) => scheduler.delivers(platform),
          now: scheduling.now,
        })
      : undefined;
  const scheduleTools = scheduleService
    ? [
        createScheduleTool({
          service: scheduleService,
          places: runPlaces,
          timeZone: scheduling?.settings.DEFAULT_TIMEZONE || Intl.DateTimeFormat().resolvedOptions().timeZone,
          now: scheduling?.now,
        }),
      ]
    : [];
  const combined = combineTools([
    fixedTools([
      ...createTools(options.tools),
      ...memoryTools,
      ...knowledgeTools(options.knowledge),
      ...scheduleTools,
    ]),
    ...(options.toolSources ?? []),
  ]);
  const tools = options.wrapTool ? mapTools(combined, options.wrapTool) : combined;
  const summaryModel = options.summaryModel ?? options.model.model;
  const models = createModelChains(options.model, summaryModel, options.fallback, {
    observer: options.observer,
    logger,
    now: options.now,
  });
  const fallback = options.fallback !== undefined && options.fallback.endpoints.length > 0;
  const bare = createAgent({
    model: fallback ? reportingAnswers(models.agent) : models.agent,
    tools,
    prompts,
    settings: options.agent,
    logger,
    redact: options.redact,
    vision: options.input?.LLM_VISION,
    notes: recall
      ? createNotesPrompt({ notes: recall.store, maxTokens: recall.settings.NOTES_MAX_TOKENS })
      : undefined,
  });
  const agent = fallback ? noticingFallbacks(bare, logger) : bare;
  // Which model wrote each summary, by the usage object the summariser hands on (fallbacks have their own).
  const summarizedBy = new WeakMap<TokenUsage, string>();
  const summarizer = createSummarizer({
    model: {
      async complete(request) {
        const completion = await models.summary.complete(request);
        if (completion.answeredBy) summarizedBy.set(completion.usage, completion.answeredBy.model);
        return completion;
      },
    },
    prompts,
    maxTokens: options.memory.MEMORY_SUMMARY_MAX_TOKENS,
    logger,
  });
  const governor = createGovernor({
    settings: options.governance,
    usage: options.usage,
    feedback: options.feedback,
    model: options.model.model,
    protocol: options.agent.AGENT_PROTOCOL,
    logger,
  });
  governorRef = governor;
  const memory = createChannelMemory({
    store,
    summarizer,
    budget: options.memory,
    logger,
    onSummaryUsage: (key, spent) =>
      void governor
        .summarized(key, spent, summarizedBy.get(spent) ?? summaryModel)
        .catch((err: unknown) => logger.error({ key, err }, 'could not record a summary’s usage')),
  });
  const settings = createSettingsService({
    store: options.settings,
    defaults: {
      model: options.model.model,
      protocol: options.agent.AGENT_PROTOCOL,
      follow: options.follows?.settings.FOLLOW_THREADS ?? true,
    },
    models: options.models ?? [],
    groups: () => tools.groups(),
    logger,
  });
  const queue = options.runQueue ?? createRunQueue(options.runs, (ms) => options.observer?.waited?.(ms));
  const runLogs = options.runLogs;
  const stopRunLogRetention = runLogs
    ? startRunLogRetention({ store: runLogs.store, days: runLogs.days, logger })
    : undefined;
  const stopArchiveRetention = recall
    ? startRetention({ archive: recall.store, days: recall.settings.MEMORY_RETENTION_DAYS, logger })
    : undefined;
  const approvals = options.approvals
    ? createApprovals({
        settings: options.approvals.settings,
        store: options.approvals.store,
        waits: options.approvals.waits,
        beatMs: options.approvals.beatMs,
        staleMs: options.approvals.staleMs,
        isAdmin: (who) => governor.isAdmin(who),
        logger,
      })
    : undefined;
  const created = createAssistant({
    agent,
    memory,
    limits: options.runs,
    queue,
    governor,
    observer: options.observer,
    logger,
    tools,
    settings,
    feedback: options.feedback,
    runLogs: runLogs && runLogs.days > 0 ? runLogs.store : undefined,
    input: options.input,
    startingModel: fallback ? models.startingModel : undefined,
    memoryCommands: recall
      ? createMemoryCommands({
          store: recall.store,
          isAdmin: (asker) => governor.isAdmin(asker),
        })
      : undefined,
    runPlaces: scheduleService ? runPlaces : undefined,
    scheduleCommand: scheduleService
      ? (place, args) => runScheduleCommand(scheduleService, place, args)
      : undefined,
    approvals,
    approvalsCommand: options.approvals
      ? createApprovalsCommand({
          settings: options.approvals.settings,
          tools,
          store: options.approvals.store,
        })
      : undefined,
    onClose: () => {
      stopArchiveRetention?.();
      stopRunLogRetention?.();
    },
  });
  const assistant = withKnowledge(created, options.knowledge, (asker) => governor.isAdmin(asker));
  const follows = options.follows
    ? createThreadFollows({
        store: options.follows.store,
        settings: options.follows.settings,
        followsIn: async (settingsKey) => (await settings.inForce(settingsKey)).follow,
        logger,
        now: options.follows.now,
      })
    : undefined;
  return {
    assistant,
    schedules: scheduler,
    approvals,
    follows,
    close: async () => {
      await scheduler?.stop();
      await approvals?.stop();
      await assistant.close();
    },
  };
}

/**
 * The agent, with a `notice` under each answer a fallback model gave (once per fallback and run), saying the
 * primary was unavailable and who answered: endpoints are named `model@host`, never by key or full URL.
 */
function noticingFallbacks(agent: Agent, logger: Logger): Agent {
  const noticing = <T>(onEvent: AgentEventHandler | undefined, run: () => Promise<T>): Promise<T> => {
    const told = new Set<string>();
    return listenForAnswers((answer) => {
      if (!answer.insteadOf || !onEvent || told.has(answer.endpoint)) return;
      told.add(answer.endpoint);
      try {
        onEvent({ type: 'notice', code: 'model_fallback', message: fallbackNotice(answer) });
      } catch (err) {
        logger.warn({ err }, 'an event handler failed');
      }
    }, run);
  };
  const { resume } = agent;
  return {
    run: (input, onEvent) => noticing(onEvent, () => agent.run(input, onEvent)),
    ...(resume ? { resume: (input, onEvent) => noticing(onEvent, () => resume(input, onEvent)) } : {}),
  };
}
