import type { AgentEventHandler, RunResult } from '../agent/events.js';
import { rememberedAnswer } from '../agent/notes.js';
import type { Agent, RunProfile } from '../agent/types.js';
import type { Approvals } from '../approvals/create-approvals.js';
import { showingDecisions } from '../approvals/resumed-decisions.js';
import type { AskOutcome, AskRequest, Assistant } from '../assistant.js';
import { ContextUnavailableError, StorageError } from '../errors.js';
import { type Governor, REFUSED_MESSAGE } from '../governance/governor.js';
import { type InputParts, prepareInput, rememberedQuestion } from '../input/prepare-input.js';
import { DEFAULT_INPUT_SETTINGS, type InputSettings } from '../input/types.js';
import { listenForAnswers } from '../llm/model-answers.js';
import type { Logger } from '../logger.js';
import type { MemoryCommands } from '../memory/memory-commands.js';
import type { ChannelMemory } from '../memory/types.js';
import type { FeedbackStore } from '../ports/feedback-store.js';
import type { RunObservation, RunObserver } from '../ports/run-observer.js';
import { PLACE_KEPT, type RunQueue } from '../ports/run-queue.js';
import type { ToolSource } from '../ports/tool-source.js';
import type { UsageResult } from '../ports/usage-store.js';
import { creatorOf } from '../schedules/creator.js';
import type { RunPlaces } from '../schedules/run-places.js';
import type { ScheduleCommandPlace } from '../schedules/schedule-commands.js';
import type { SettingsInForce } from '../settings/channel-settings.js';
import { groupsInForce } from '../settings/select-tools.js';
import type { SettingsService } from '../settings/settings-service.js';
import { bindToActive, channelHash, inSpan, startSpan, tracesContent } from '../tracing/spans.js';
import { linkedSignal } from '../util/linked-signal.js';
import { pauseIfBusy } from '../util/pauser.js';
import { promptCacheKey } from './prompt-cache-key.js';
import type { RunLogRecorder } from './run-log-recorder.js';
import { newRunRecorder, type RunLogKeeper, resumedRunRecorder } from './run-log-start.js';
import { createRunMeter } from './run-meter.js';
import { createRunQueue, type RunQueueLimits } from './run-queue.js';

/** The reply when a channel already has MAX_QUEUED_PER_CHANNEL questions waiting. */
export const BUSY_MESSAGE = 'Busy with earlier questions in this channel; try again shortly.';
/** Under an answer that could not be stored in the channel's memory. */
export const NOT_REMEMBERED_MESSAGE = 'This answer could not be saved to memory, so I will not remember it.';
/** The reply when the line of questions (shared by replicas) cannot be reached. */
export const STORAGE_UNAVAILABLE_MESSAGE = 'Storage is unavailable right now; try again shortly.';
/** The reply to questions arriving while the bot shuts down. */
export const CLOSING_MESSAGE = 'Shutting down; try again shortly.';
/** The reply to `/settings` from someone who is not an admin. */
export const SETTINGS_ADMINS_ONLY = 'Only admins can see or change this bot’s settings.';

/** Dependencies of the assistant service. */
export interface AssistantDeps {
  agent: Agent;
  memory: ChannelMemory;
  limits: RunQueueLimits;
  /** The per-channel line; in memory (from `limits`) when unset. */
  queue?: RunQueue | undefined;
  /** Access lists, limits and usage records; without it every ask is let through unrecorded. */
  governor?: Governor | undefined;
  /** Told of every governed question as it ends (metrics). */
  observer?: RunObserver | undefined;
  logger?: Logger | undefined;
  /** What `/tools` reports; none when unset. */
  tools?: ToolSource | undefined;
  /** Per-channel settings; without it every channel runs with the defaults and `/settings` is unavailable. */
  settings?: SettingsService | undefined;
  /** Where each run's steps are kept for the admin page; none are kept when unset (RUN_LOG_RETENTION_DAYS=0). */
  runLogs?: RunLogKeeper | undefined;
  /** Where votes on answers are kept; without it they are only logged. */
  feedback?: FeedbackStore | undefined;
  now?: () => number;
  /** Budgets of thread context and attachments, and whether the model sees images. */
  input?: InputSettings | undefined;
  /** `/memory notes|remember|forget|forget-me`; unavailable when unset. */
  memoryCommands?: MemoryCommands | undefined;
  /** Called once at close (the archive's retention timer). */
  onClose?: (() => void) | undefined;
  /**
   * The model a run asking for `model` starts on (a fallback's while the primary is kept out, LLM_FALLBACK):
   * what its usage record names. `model` itself when unset.
   */
  startingModel?: ((model: string) => string) | undefined;
  /** Told who asks in each conversation while its run lasts (the `schedule` tool schedules as them). */
  runPlaces?: RunPlaces | undefined;
  /** `/schedule list|cancel|add`; unavailable when unset. */
  scheduleCommand?: ((place: ScheduleCommandPlace, args: string) => Promise<string>) | undefined;
  /** Tool calls that wait for a person's approval; every call runs at once when unset. */
  approvals?: Approvals | undefined;
  /** `/settings approvals …` (admin checks are the assistant's); unavailable when unset. */
  approvalsCommand?: ((settingsKey: string, args: string) => Promise<string>) | undefined;
}

/**
 * The platform-neutral service: runs each question through the agent with its channel's memory, one at a
 * time per channel in arrival order, and remembers the turn only when the run answered (and was not
 * cancelled).
 */
export function createAssistant(deps: AssistantDeps): Assistant {
  const { agent, memory, governor, logger } = deps;
  const observe = (platform: string, outcome: RunObservation['outcome'], spent?: UsageResult) => {
    try {
      deps.observer?.observe({
        platform,
        outcome,
        durationMs: spent?.durationMs ?? 0,
        modelCalls: spent?.modelCalls ?? 0,
        promptTokens: spent?.promptTokens ?? 0,
        completionTokens: spent?.completionTokens ?? 0,
        tools: spent?.tools ?? {},
      });
    } catch (err) {
      logger?.warn({ err }, 'a run observer failed');
    }
  };
  const queue = deps.queue ?? createRunQueue(deps.limits);
  let closing = false;
  /** Set while turns cannot be stored, for /readyz; cleared by the next turn stored. */
  let writeFailure: string | undefined;
  // Bumped by reset: a run that started before a reset must not write its turn back afterwards.
  const epochs = new Map<string, number>();

  async function answer(
    request: AskRequest,
    onEvent: AgentEventHandler,
    profile: RunProfile | undefined,
    placeLost: AbortSignal,
    usageId?: number,
  ): Promise<RunResult> {
    // A shared line's run also stops if its place is lost; in one process there is nothing to link.
    const linked = placeLost === PLACE_KEPT ? undefined : linkedSignal(request.signal, placeLost);
    try {
      return await answerWith(
        request,
        onEvent,
        profile,
        placeLost,
        linked?.signal ?? request.signal,
        usageId,
      );
    } finally {
      linked?.dispose();
    }
  }

  /** The gate of a run's tool calls, with what resuming it needs should its process stop while one waits. */
  const gateOf = (
    request: AskRequest,
    author: string,
    question: string,
    profile: RunProfile | undefined,
    usageId: number | undefined,
  ) => {
    const { key, asker } = request;
    const settingsKey = request.settingsKey ?? key;
    return deps.approvals?.gateFor({
      platform: asker?.platform ?? key.slice(0, key.indexOf(':')),
      key,
      settingsKey: request.settingsKey,
      asker,
      resumable: asker
        ? async () => ({
            author,
            question,
            asker: await creatorOf(asker, author),
            settingsKey,
            profile,
            usageId,
          })
        : undefined,
    });
  };

  async function answerWith(
    request: AskRequest,
    onEvent: AgentEventHandler,
    profile: RunProfile | undefined,
    placeLost: AbortSignal,
    signal: AbortSignal | undefined,
    usageId: number | undefined,
  ): Promise<RunResult> {
    const { key, text } = request;
    // Many questions at once (a burst of channels): each starts in its turn, not all in one block.
    const paused = pauseIfBusy();
    if (paused) await paused;
    if (signal?.aborted) return cancelled(onEvent);
    const epoch = epochs.get(key) ?? 0;
    const resumed = request.resume;
    // Resolved here, in the channel's turn, so a slow name lookup cannot reorder questions.
    const author = resumed
      ? resumed.run.author
      : await Promise.resolve(request.author).catch(() => 'someone');
    let context: Awaited<ReturnType<ChannelMemory['context']>> = { turns: [] };
    if (!resumed) {
      try {
        context = await inSpan('thinkthread.memory.load', {}, () => memory.context(key));
      } catch (err) {
        logger?.error({ key, err }, 'could not load channel memory');
        return failed(onEvent, 'storage', 'Could not read this channel’s memory; try again shortly.');
      }
    }
    const prepared = resumed
      ? undefined
      : prepareInput(await readInput(request, logger), deps.input ?? DEFAULT_INPUT_SETTINGS);
    const question = prepared ? rememberedQuestion(text, prepared) : (resumed?.run.question ?? text);
    let result: RunResult;
    const leave =
      request.asker &&
      deps.runPlaces?.enter(key, { asker: request.asker, settingsKey: request.settingsKey ?? key, author });
    const asker = request.asker;
    const common = {
      signal,
      profile,
      cacheKey: promptCacheKey(key),
      key,
      settingsKey: request.settingsKey ?? key,
      principal: asker?.principal,
      askerIsAdmin: asker && governor ? () => governor.isAdmin(asker) : undefined,
      privatePlace: asker ? asker.dm || asker.privateChannel === true : undefined,
      approve: gateOf(request, author, question, profile, usageId),
    };
    try {
      result =
        resumed && agent.resume
          ? await agent.resume(
              { ...common, checkpoint: resumed.checkpoint, decided: resumed.decided },
              showingDecisions(resumed, onEvent),
            )
          : await agent.run(
              {
                ...common,
                message: text,
                author,
                context,
                preface: prepared?.preface,
                quoted: prepared?.quoted,
                images: prepared?.images,
              },
              onEvent,
            );
    } catch (err) {
      // The agent promises not to throw; if it does anyway, the channel keeps going.
      logger?.error({ key, err }, 'agent run threw');
      return failed(onEvent, 'internal', 'Something went wrong while answering.');
    } finally {
      leave?.();
    }
    if (result.status !== 'answered') return result;
    // Cancelled as the answer came in: the asker walked away, so the turn is not remembered.
    if (request.signal?.aborted) return { status: 'cancelled' };
    // Delivered, but the line has moved on without this replica: written now, the turn could land after
    // a later one, so it is not remembered.
    if (placeLost.aborted) {
      onEvent({ type: 'notice', code: 'not_remembered', message: NOT_REMEMBERED_MESSAGE });
      return result;
    }
    for (const note of prepared?.notes ?? []) onEvent({ type: 'notice', code: 'input', message: note });
    if ((epochs.get(key) ?? 0) !== epoch) return result; // reset while answering: delivered, not remembered
    try {
      await memory.record(key, {
        author,
        question,
        answer: rememberedAnswer(result.text, result.truncated),
        principal: request.asker?.principal,
      });
      if (writeFailure) logger?.info({ key }, 'memory writes work again');
      writeFailure = undefined;
    } catch (err) {
      // The answer was delivered; it just is not remembered. Memory stays consistent (the turn is absent).
      if (writeFailure) logger?.debug({ key, err }, 'memory writes still failing');
      else
        logger?.error(
          { key, err },
          'could not store the turn; answers are not remembered until this is fixed',
        );
      writeFailure = 'memory writes are failing';
      onEvent({ type: 'notice', code: 'not_remembered', message: NOT_REMEMBERED_MESSAGE });
    }
    return result;
  }

  /** In the channel's turn, so a limit reached while questions wait refuses only those not yet started. */
  async function governed(
    request: AskRequest,
    onEvent: AgentEventHandler,
    placeLost: AbortSignal,
  ): Promise<AskOutcome> {
    const { asker, key } = request;
    let settings: SettingsInForce | undefined;
    try {
      settings = await deps.settings?.inForce(request.settingsKey ?? key);
    } catch (err) {
      logger?.error({ key, err }, 'could not read the channel settings');
      return failed(onEvent, 'storage', 'Could not read this channel’s settings; try again shortly.');
    }
    const profile = request.resume ? request.resume.run.profile : settings && profileOf(settings);
    if (!governor || !asker) return answer(request, onEvent, profile, placeLost);
    if (request.resume) return resumedRun(request, onEvent, profile, placeLost, governor);
    if (request.signal?.aborted) return cancelled(onEvent);
    let admit: Awaited<ReturnType<Governor['admit']>>;
    try {
      admit = await governor.admit(
        asker,
        key,
        settings && deps.startingModel
          ? { model: deps.startingModel(settings.model), protocol: settings.protocol }
          : settings,
      );
    } catch (err) {
      // Without the count, a limit cannot be kept: the question waits for the store rather than spending.
      logger?.error({ key, err }, 'could not count the question against its limits');
      return failed(onEvent, 'storage', 'Could not check the usage limits; try again shortly.');
    }
    if (!admit.admitted) {
      observe(asker.platform, 'limited');
      onEvent({ type: 'error', code: 'limited', message: admit.message });
      return { status: 'limited', message: admit.message };
    }
    const meter = createRunMeter(onEvent);
    const recorder =
      deps.runLogs &&
      newRunRecorder(
        meter.onEvent,
        {
          usageId: admit.id,
          at: admit.at,
          platform: asker.platform,
          key,
          userId: asker.principal,
          question: request.text,
        },
        asker,
      );
    let result: RunResult | undefined;
    // The model that gave the last answer, when a fallback chain says (LLM_FALLBACK): what the record names.
    let answeredBy: string | undefined;
    try {
      result = await listenForAnswers(
        (answer) => {
          answeredBy = answer.model;
        },
        () => answer(request, recorder?.onEvent ?? meter.onEvent, profile, placeLost, admit.id),
      );
      return result;
    } finally {
      spent(governor, asker.platform, key, admit.id, {
        ...meter.result(result, Date.now() - admit.at),
        answeredBy,
      });
      keepLog(recorder, key);
    }
  }

  /** Keeps a run's log (as it ends, not awaited). */
  function keepLog(recorder: RunLogRecorder | undefined, key: string): void {
    if (!recorder) return;
    deps.runLogs
      ?.saveRunLog(recorder.log())
      .catch((err: unknown) => logger?.warn({ key, err }, 'could not keep a run log'));
  }

  /** A run taken over after its process stopped: admitted when it was asked, it completes that record. */
  async function resumedRun(
    request: AskRequest,
    onEvent: AgentEventHandler,
    profile: RunProfile | undefined,
    placeLost: AbortSignal,
    governor: Governor,
  ): Promise<AskOutcome> {
    const usageId = request.resume?.run.usageId;
    const started = Date.now();
    const checkpoint = request.resume?.checkpoint;
    // The record covers the whole question: what was spent before the restart, up to the step that waited, too.
    const meter = createRunMeter(
      onEvent,
      checkpoint && { modelCalls: checkpoint.step, usage: checkpoint.usage },
    );
    const recorder =
      deps.runLogs && usageId !== undefined && request.resume
        ? await resumedRunRecorder(deps.runLogs, meter.onEvent, request.resume, usageId, logger)
        : undefined;
    let result: RunResult | undefined;
    try {
      result = await answer(request, recorder?.onEvent ?? meter.onEvent, profile, placeLost, usageId);
      return result;
    } finally {
      const platform = request.asker?.platform ?? 'unknown';
      spent(governor, platform, request.key, usageId, meter.result(result, Date.now() - started));
      keepLog(recorder, request.key);
    }
  }

  /** A question ended: told to the metrics, and written into its usage record (as it ends, not awaited). */
  function spent(
    governor: Governor,
    platform: string,
    key: string,
    usageId: number | undefined,
    result: UsageResult,
  ): void {
    observe(platform, result.outcome as RunObservation['outcome'], result);
    if (usageId === undefined) return;
    governor
      .complete(usageId, result)
      .catch((err: unknown) => logger?.error({ key, err }, 'could not complete a usage record'));
  }

  /** One question as one trace: platform, channel hash and outcome (its text only with OTEL_CAPTURE_CONTENT). */
  const traced = (request: AskRequest, onEvent: AgentEventHandler): Promise<AskOutcome> =>
    inSpan('invoke_agent thinkthread', { attributes: questionAttributes(request) }, async (span) => {
      const outcome = await ask(request, onEvent);
      span.setAttribute('thinkthread.outcome', outcome.status);
      if (outcome.status === 'answered' && tracesContent())
        span.setAttribute(
          'gen_ai.output.messages',
          JSON.stringify([{ role: 'assistant', content: outcome.text }]),
        );
      return outcome;
    });

  async function ask(request: AskRequest, onEvent: AgentEventHandler): Promise<AskOutcome> {
    // Read only in the channel's turn, maybe much later: a rejection must not count as unhandled meanwhile.
    Promise.resolve(request.context).catch(() => {});
    Promise.resolve(request.attachments).catch(() => {});
    if (closing) return busy(onEvent, CLOSING_MESSAGE);
    if (governor && request.asker && !request.resume) {
      const decision = await governor.access(request.asker, request.key);
      if (!decision.allowed) {
        observe(request.asker.platform, 'refused');
        onEvent({ type: 'error', code: 'refused', message: REFUSED_MESSAGE });
        return { status: 'refused', message: REFUSED_MESSAGE };
      }
    }
    let outcome: Awaited<ReturnType<typeof queue.run<AskOutcome>>>;
    const waiting = startSpan('thinkthread.queue_wait');
    try {
      outcome = await queue.run(
        request.key,
        // Run by the line, maybe from another question's turn: still a part of this question's trace.
        bindToActive((placeLost: AbortSignal) => {
          waiting.end();
          return governed(request, onEvent, placeLost);
        }),
        request.signal,
        request.arrival,
      );
    } catch (err) {
      waiting.end();
      if (!(err instanceof StorageError)) throw err;
      logger?.error({ key: request.key, err }, 'could not queue the question');
      return failed(onEvent, 'storage', STORAGE_UNAVAILABLE_MESSAGE);
    }
    switch (outcome.status) {
      case 'done':
        return outcome.value;
      case 'busy':
        return busy(onEvent, BUSY_MESSAGE);
      case 'cancelled':
        return cancelled(onEvent);
    }
  }

  return {
    ask: traced,
    async reset(key) {
      epochs.set(key, (epochs.get(key) ?? 0) + 1);
      await memory.reset(key);
    },
    async access(asker, key) {
      if (!governor) return { allowed: true };
      const decision = await governor.access(asker, key);
      return decision.allowed ? { allowed: true } : { allowed: false, message: REFUSED_MESSAGE };
    },
    async usage(asker, key) {
      if (!governor) throw new Error('usage is not recorded by this assistant');
      const report = await governor.report(asker, key);
      // `top` is there for admins only: so are the approvals.
      if (!report.top || !deps.approvals) return report;
      const approvals = await deps.approvals.recent(RECENT_APPROVALS);
      return approvals.length > 0 ? { ...report, approvals } : report;
    },
    async feedback(entry) {
      const at = deps.now?.() ?? Date.now();
      if (!deps.feedback) {
        logger?.info({ key: entry.key, run: entry.runId, vote: entry.vote }, 'feedback (not stored)');
        return;
      }
      await deps.feedback.recordFeedback({ ...entry, at });
    },
    async memory(key, settingsKey) {
      const report = await memory.report(key);
      const settings = await deps.settings?.inForce(settingsKey ?? key);
      return settings ? { ...report, settings } : report;
    },
    tools: () => ({ groups: deps.tools?.groups() ?? [] }),
    async toolsIn(settingsKey) {
      const groups = deps.tools?.groups() ?? [];
      const settings = await deps.settings?.inForce(settingsKey);
      return { groups: groupsInForce(groups, settings?.tools) };
    },
    async settings(asker, settingsKey, change) {
      const admin = governor
        ? await governor.isAdmin(asker)
        : (await Promise.resolve(asker.platformAdmin).catch(() => false)) === true;
      if (!admin) return { status: 'refused', message: SETTINGS_ADMINS_ONLY };
      if (!deps.settings) throw new Error('settings are not kept by this assistant');
      const outcome = await deps.settings.change(settingsKey, change);
      if (outcome.status !== 'shown') {
        logger?.info(
          {
            platform: asker.platform,
            user: asker.principal,
            key: settingsKey,
            action: change.action,
            status: outcome.status,
          },
          'channel settings request',
        );
      }
      return outcome;
    },
    async settingsIn(settingsKey) {
      if (!deps.settings) throw new Error('settings are not kept by this assistant');
      return deps.settings.inForce(settingsKey);
    },
    health: () => writeFailure,
    inFlight: () => queue.size(),
    history: (key) => memory.context(key),
    memoryCommand: (asker, key, args) => deps.memoryCommands?.run(asker, key, args),
    ...(deps.scheduleCommand ? { scheduleCommand: deps.scheduleCommand } : {}),
    ...(deps.approvals
      ? {
          decideApproval: deps.approvals.decide,
          checkApproval: deps.approvals.check,
          approvalCall: deps.approvals.call,
          keptApprovals: deps.approvals.kept,
        }
      : {}),
    async approvalsCommand(asker, settingsKey, args) {
      const admin = governor
        ? await governor.isAdmin(asker)
        : (await Promise.resolve(asker.platformAdmin).catch(() => false)) === true;
      if (!admin) return SETTINGS_ADMINS_ONLY;
      if (!deps.approvalsCommand) return 'No tool asks for approval here.';
      return deps.approvalsCommand(settingsKey, args);
    },
    async close() {
      closing = true;
      deps.onClose?.();
      await queue.idle();
      await memory.idle();
    },
  };
}

/** The attributes of a question's trace: where it was asked, never who or what (unless content is captured). */
function questionAttributes(request: AskRequest): Record<string, string> {
  return {
    'gen_ai.operation.name': 'invoke_agent',
    'gen_ai.agent.name': 'thinkthread',
    'thinkthread.platform': request.asker?.platform ?? request.key.slice(0, request.key.indexOf(':')),
    'thinkthread.channel': channelHash(request.key),
    ...(tracesContent()
      ? { 'gen_ai.input.messages': JSON.stringify([{ role: 'user', content: request.text }]) }
      : {}),
  };
}

/** Decisions on tool calls admins' `/usage` lists. */
const RECENT_APPROVALS = 10;

/** What a channel's settings change for its runs. */
function profileOf(settings: SettingsInForce): RunProfile {
  return {
    instructions: settings.prompt,
    model: settings.model,
    protocol: settings.protocol,
    tools: settings.tools === 'all' ? undefined : settings.tools,
  };
}

/** The request's context and files, awaited; a thread that could not be read becomes a note, never a failure. */
async function readInput(request: AskRequest, logger: Logger | undefined): Promise<InputParts> {
  const parts: InputParts = {};
  try {
    parts.context = await request.context;
  } catch (err) {
    if (!(err instanceof ContextUnavailableError))
      logger?.warn({ key: request.key, err }, 'could not read the thread');
    parts.unreadable =
      err instanceof ContextUnavailableError ? err.message : 'I could not read the earlier messages here.';
  }
  try {
    parts.attachments = await request.attachments;
  } catch (err) {
    logger?.warn({ key: request.key, err }, 'could not read the attachments');
    parts.filesUnreadable = true;
  }
  return parts;
}

function busy(onEvent: AgentEventHandler, message: string): AskOutcome {
  onEvent({ type: 'error', code: 'busy', message });
  return { status: 'busy', message };
}

function cancelled(onEvent: AgentEventHandler): RunResult {
  onEvent({ type: 'error', code: 'cancelled', message: 'Cancelled.' });
  return { status: 'cancelled' };
}

// Details (paths, causes) go to the log; the channel gets a short sentence.
function failed(onEvent: AgentEventHandler, code: 'storage' | 'internal', message: string): RunResult {
  onEvent({ type: 'error', code, message });
  return { status: 'failed', code, message };
}
