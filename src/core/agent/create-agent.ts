import type { AgentCheckpoint, ApprovalGate, GateVerdict } from '../approvals/approval-gate.js';
import { type ErrorCode, ModelError, ThinkthreadError } from '../errors.js';
import type { ChatMessage, ChatModel, TokenUsage } from '../llm/types.js';
import type { Logger } from '../logger.js';
import { fixedTools, type ToolSource } from '../ports/tool-source.js';
import type { PromptSet } from '../prompts.js';
import { toolNamesInForce } from '../settings/select-tools.js';
import type { Tool } from '../tools/define-tool.js';
import { RECALL_PROMPT, RECALL_TOOL } from '../tools/recall.js';
import { KNOWLEDGE_PROMPT, KNOWLEDGE_TOOL } from '../tools/search-knowledge.js';
import { createDeadline, type Deadline } from '../util/deadline.js';
import { readWallClock, wallClockFormat } from '../util/wall-clock.js';
import { capAnswer, limitAnswerDeltas } from './answer-limit.js';
import { buildMessages, type PromptNotes } from './build-messages.js';
import type { AgentEvent, AgentEventHandler, AnswerCut, RunResult } from './events.js';
import { LENGTH_CUT_FAILURE } from './notes.js';
import type { Decision, Protocol } from './protocol.js';
import { createReactProtocol } from './react-protocol.js';
import { runToolCalls, type ToolRunOptions } from './run-tools.js';
import { firstStop, maxSteps, type StopCondition } from './stop-conditions.js';
import { createToolsProtocol } from './tools-protocol.js';
import type { Agent, RunInput, RunProfile } from './types.js';

/** The longest question accepted; longer ones get a clear message instead of a huge prompt. */
export const MAX_MESSAGE_CHARS = 16_000;

/** Introduces the images tool calls returned, sent to vision models after the observations. */
const TOOL_IMAGES = 'The images returned by the tool calls above:';

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

/**
 * Creates the ReAct agent for the configured protocol.
 *
 * What never reaches the asker as an answer (issue 32):
 * - A reply the model's length limit cut before it was an answer (a half tool call, unlabelled prose cut
 *   anywhere, a reply cut on a bare step marker, nothing at all) is retried once per run, with a message asking
 *   for a shorter reply; if the retry is cut too, or the cut came at the last step, the run fails with
 *   LENGTH_CUT_FAILURE, a short error that says to ask for something shorter. Nothing of a cut reply is run or
 *   shown: a half answer the model did not label as one may be a plan. A cut reply that is one by its form (a
 *   `Final Answer:` label; in native tool calling, text that announces no next step) is delivered as far as
 *   it got, flagged `truncated: 'length'` so renderers mark it incomplete.
 * - A plan announced as prose ("Let me look that up") gets the format reminder; at the last step, where
 *   there is no step left to take, the run ends with the stop condition's message, exactly as when the model
 *   still asks for a tool there.
 */
export function createAgent(deps: AgentDeps): Agent {
  const { settings, logger } = deps;
  const source = isToolSource(deps.tools) ? deps.tools : fixedTools(deps.tools);
  const now = deps.now ?? (() => new Date());
  const stopConditions = deps.stopConditions ?? [maxSteps(settings.AGENT_MAX_STEPS)];
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
  // Rendered once per day, per change of the tools and per channel setup, not per run, so the prompt's prefix
  // stays cacheable; rendering now also fails at startup on a bad template.
  const toolboxes = new Map<string, Toolbox>();
  let stamp = '';
  const forThisRun = (profile?: RunProfile): Toolbox => {
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
  forThisRun();
  const timeLine = timeNow(settings.DEFAULT_TIMEZONE);

  async function loop(
    input: RunInput,
    signal: AbortSignal,
    emit: AgentEventHandler,
    clock: Pick<Deadline, 'pause' | 'resume'>,
    from?: ResumeFrom,
  ): Promise<RunResult> {
    // One run keeps the tools it started with; a tool withdrawn meanwhile fails its call instead.
    const { protocol, toolsByName, system } = forThisRun(input.profile);
    const notes = from ? undefined : await notesFor(input);
    const messages: ChatMessage[] = from
      ? [...from.checkpoint.messages]
      : buildMessages(system, input.context, input.author, input.message, {
          instructions: input.profile?.instructions,
          notes,
          preface: input.preface,
          images: input.images,
          now: timeLine(now()),
        });
    const read = [...(notes?.provenance ?? []), ...(input.quoted ?? [])];
    if (read.length > 0) emit({ type: 'read', sources: read });
    const usage: TokenUsage = from
      ? { ...from.checkpoint.usage }
      : { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
    let reminded = false;
    let retriedCut = from?.checkpoint.retriedCut ?? false;

    /** Runs the calls of one step (those already decided with their decision) and adds what they saw. */
    const act = async (
      step: number,
      decision: Extract<Decision, { kind: 'act' }>,
      decided?: ReadonlyMap<string, GateVerdict>,
    ) => {
      // The conversation before this step's reply: copied only if a call waits for a person.
      const before = messages.length;
      for (const call of decision.calls) {
        emit({
          type: 'action',
          step,
          callId: call.id,
          tool: call.tool,
          input: displayInput(call.input, call.rawJson),
        });
      }
      const checkpoint = (): AgentCheckpoint => ({
        messages: messages.slice(0, before),
        record: decision.record,
        calls: decision.calls,
        step,
        usage: { ...usage },
        retriedCut,
      });
      const observations = await runToolCalls(
        toolsByName,
        decision.calls,
        {
          timeoutMs: settings.TOOL_TIMEOUT_MS,
          concurrency: settings.TOOL_CONCURRENCY,
          signal,
          ...(deps.redact ? { redact: deps.redact } : {}),
          conversation: {
            key: input.key,
            settingsKey: input.settingsKey,
            principal: input.principal,
            askerIsAdmin: input.askerIsAdmin,
            privatePlace: input.privatePlace,
          },
          approve: gated(input.approve, { step, signal, emit, clock, checkpoint, decided }),
        },
        (call, o) =>
          emit({ type: 'observation', step, callId: call.id, tool: call.tool, text: o.text, ok: o.ok }),
      );
      messages.push(decision.record, ...protocol.observationMessages(decision.calls, observations));
      const images = observations.flatMap((o) => o.images ?? []);
      if (deps.vision && images.length > 0) {
        messages.push({ role: 'user', content: [{ type: 'text', text: TOOL_IMAGES }, ...images] });
      }
    };

    if (from) {
      const { checkpoint } = from;
      await act(
        checkpoint.step,
        { kind: 'act', thought: '', calls: checkpoint.calls, record: checkpoint.record },
        from.decided,
      );
    }

    for (let step = (from?.checkpoint.step ?? 0) + 1; ; step++) {
      const stop = firstStop(stopConditions, { step, usage });
      const last = stop !== undefined;
      if (last && step > 1) messages.push(protocol.finalStep());
      const { decision, usage: spent } = await protocol.decide(messages, {
        step,
        last,
        signal,
        emit,
        cacheKey: input.cacheKey,
        showReasoning: settings.SHOW_REASONING ?? true,
      });
      addUsage(usage, spent);
      emit({ type: 'usage', step, usage: { ...spent } });

      switch (decision.kind) {
        case 'final':
          if (decision.thought) emit({ type: 'thought', step, text: decision.thought });
          return answered(
            capAnswer(decision.text, settings.ANSWER_MAX_CHARS, decision.truncated),
            usage,
            step,
            emit,
          );

        case 'cut':
          // Retried once per run, asking for brevity; cut again, or with no step left, the run fails clearly.
          if (retriedCut || last) return failed('invalid_output', LENGTH_CUT_FAILURE, emit);
          retriedCut = true;
          if (decision.record) messages.push(decision.record);
          messages.push(protocol.lengthRetry());
          continue;

        case 'invalid':
          // A plan at the last step is a step the model has no room for: the steps ran out, as for a tool call.
          if (decision.plan && stop) {
            return answered({ text: stop.message, truncated: undefined }, usage, step, emit);
          }
          if (reminded || last) {
            return failed(
              'invalid_output',
              "The model's reply could not be understood. Please try again.",
              emit,
            );
          }
          reminded = true;
          messages.push(decision.record, protocol.reminder(decision.reason));
          continue;

        case 'act': {
          reminded = false;
          emit({ type: 'thought', step, text: decision.thought });
          if (stop) return answered({ text: stop.message, truncated: undefined }, usage, step, emit);
          await act(step, decision);
          continue;
        }
      }
    }
  }

  /** The notes for this run's prompt; a run goes on without them when they cannot be read. */
  async function notesFor(input: RunInput): Promise<PromptNotes | undefined> {
    if (!deps.notes || !input.key) return undefined;
    try {
      return await deps.notes(input.key, input.principal);
    } catch (err) {
      logger?.warn(
        { key: input.key, err: describe(err, deps.redact) },
        'could not read the notes; answering without them',
      );
      return undefined;
    }
  }

  /** Runs the loop under the run's deadline, turning every way it can end into a result. */
  async function guarded(input: RunInput, emit: AgentEventHandler, from?: ResumeFrom): Promise<RunResult> {
    const deadline = createDeadline(settings.RUN_TIMEOUT_MS, input.signal, 'run timeout');
    try {
      return await loop(input, deadline.signal, emit, deadline, from);
    } catch (err) {
      if (input.signal?.aborted) {
        // Stopped on purpose (Stop, a shutdown), or for a reason the asker is told (a lost place in line).
        const reason: unknown = input.signal.reason;
        if (reason instanceof ThinkthreadError) return failed(reason.code, reason.message, emit);
        emit({ type: 'error', code: 'cancelled', message: 'Cancelled.' });
        return { status: 'cancelled' };
      }
      if (deadline.expired) {
        return failed(
          'timeout',
          `That took too long (over ${Math.round(settings.RUN_TIMEOUT_MS / 1000)} s) and was stopped.`,
          emit,
        );
      }
      if (err instanceof ThinkthreadError) {
        // The asker is told; at info, the terminal chat (warn) keeps its conversation free of log lines.
        logger?.info({ code: err.code, err: describe(err, deps.redact) }, 'run failed');
        const hint = err instanceof ModelError && err.retryLater ? ' Please try again in a moment.' : '';
        return failed(err.code, `${err.message}${hint}`, emit);
      }
      logger?.error({ err: describe(err, deps.redact) }, 'run crashed');
      return failed('internal', 'Something went wrong on my side; the details are in the logs.', emit);
    } finally {
      deadline.dispose();
    }
  }

  return {
    async run(input, onEvent) {
      const emit = limitAnswerDeltas(safeEmitter(onEvent, logger), settings.ANSWER_MAX_CHARS);
      const text = input.message.trim();
      if (!text) return failed('invalid_input', 'The message was empty: ask me something.', emit);
      if (text.length > MAX_MESSAGE_CHARS) {
        return failed(
          'invalid_input',
          `That message is too long (${text.length.toLocaleString('en')} characters; the limit is ${MAX_MESSAGE_CHARS.toLocaleString('en')}).`,
          emit,
        );
      }
      return guarded({ ...input, message: text }, emit);
    },
    async resume(input, onEvent) {
      const emit = limitAnswerDeltas(safeEmitter(onEvent, logger), settings.ANSWER_MAX_CHARS);
      // The conversation is in the checkpoint: the question's own fields are not read again.
      const run: RunInput = { ...input, message: '', author: '', context: { turns: [] } };
      return guarded(run, emit, { checkpoint: input.checkpoint, decided: input.decided });
    },
  };
}

/** Where a resumed run picks up: the step whose calls waited, and the decisions made on them. */
interface ResumeFrom {
  checkpoint: AgentCheckpoint;
  decided: ReadonlyMap<string, GateVerdict>;
}

/** What the gate of one step is given. */
interface StepGate {
  step: number;
  signal: AbortSignal;
  emit: AgentEventHandler;
  clock: Pick<Deadline, 'pause' | 'resume'>;
  checkpoint: () => AgentCheckpoint;
  /** Calls decided before a restart (a resumed run): they are not asked again. */
  decided?: ReadonlyMap<string, GateVerdict> | undefined;
}

/**
 * The run's approval gate as tool execution asks it: the run's timer stops while a person decides; a call
 * decided before the run was resumed goes by that decision.
 */
function gated(gate: ApprovalGate | undefined, options: StepGate): ToolRunOptions['approve'] {
  const { step, signal, emit, clock, checkpoint, decided } = options;
  if (!gate && !decided?.size) return undefined;
  const pause = () => {
    clock.pause();
    let resumed = false;
    return () => {
      if (resumed) return;
      resumed = true;
      clock.resume();
    };
  };
  return async (tool, call, input) => {
    const verdict =
      decided?.get(call.id) ??
      (gate ? await gate({ step, callId: call.id, tool, input }, { signal, emit, pause, checkpoint }) : RUNS);
    return verdict.run ? undefined : { text: verdict.observation, ok: false };
  };
}

const RUNS: GateVerdict = { run: true };

/** Channel setups whose rendered prompts are kept at once; past it they are rendered afresh. */
const MAX_TOOLBOXES = 64;

/** The tools of one version and one channel setup, and what is derived from them. */
interface Toolbox {
  protocol: Protocol;
  toolsByName: ReadonlyMap<string, Tool>;
  system: string;
}

/** The model under another name for every request (a channel's `model` setting). */
function withModel(model: ChatModel, name: string): ChatModel {
  return { complete: (request) => model.complete({ ...request, model: name }) };
}

function isToolSource(tools: readonly Tool[] | ToolSource): tools is ToolSource {
  return !Array.isArray(tools);
}

function answered(
  { text, truncated }: { text: string; truncated: AnswerCut | undefined },
  usage: TokenUsage,
  steps: number,
  emit: AgentEventHandler,
): RunResult {
  const cut = truncated ? { truncated } : {};
  emit({ type: 'answer', text, usage: { ...usage }, steps, ...cut });
  return { status: 'answered', text, usage, steps, ...cut };
}

function failed(code: ErrorCode, message: string, emit: AgentEventHandler): RunResult {
  emit({ type: 'error', code, message });
  return { status: 'failed', code, message };
}

function addUsage(total: TokenUsage, spent: TokenUsage): void {
  total.promptTokens += spent.promptTokens;
  total.completionTokens += spent.completionTokens;
  total.totalTokens += spent.totalTokens;
}

/** A renderer's exception must never break the run. */
function safeEmitter(onEvent: AgentEventHandler | undefined, logger: Logger | undefined): AgentEventHandler {
  if (!onEvent) return () => {};
  return (event: AgentEvent) => {
    try {
      onEvent(event);
    } catch (err) {
      logger?.error({ err: String(err), event: event.type }, 'event handler threw');
    }
  };
}

/** Native tool calls carry JSON text; show renderers the parsed value when it parses. */
function displayInput(input: string | Record<string, unknown>, rawJson: boolean): unknown {
  if (!rawJson || typeof input !== 'string') return input;
  try {
    return JSON.parse(input);
  } catch {
    return input;
  }
}

function describe(err: unknown, redact: ((t: string) => string) | undefined): string {
  const text =
    err instanceof Error
      ? `${err.name}: ${err.message}${err.cause ? ` (cause: ${String(err.cause)})` : ''}`
      : String(err);
  return redact ? redact(text) : text;
}

// Built once: `toLocaleDateString` with options builds a new Intl formatter per call (~130 µs, the loop's
// largest own cost per run in bench/loop-cost.ts).
const DATE_FORMAT = new Intl.DateTimeFormat('en-GB', {
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});

const DAY_MS = 86_400_000;
let formattedDay = Number.NaN;
let formatted = '';

/** `Sunday, 29 November 2026 (UTC)`: enough for the model to know what "today" is. Formatted once a day (~10 µs a call). */
function formatDate(date: Date): string {
  const day = Math.floor(date.getTime() / DAY_MS);
  if (day !== formattedDay) {
    formatted = `${DATE_FORMAT.format(date)} (UTC)`;
    formattedDay = day;
  }
  return formatted;
}

/** `Current time: Thursday, 3 December 2026, 09:05 (Europe/Berlin, GMT+01:00).` for a date, in `zone`. */
function timeNow(zone: string | undefined): (date: Date) => string {
  // The zone was checked at start-up (DEFAULT_TIMEZONE); the system's own is the fallback.
  const format = wallClockFormat(zone) ?? (wallClockFormat(undefined) as Intl.DateTimeFormat);
  const name = format.resolvedOptions().timeZone;
  return (date) => {
    const clock = readWallClock(format, date);
    return `Current time: ${clock.text} (${name}, ${clock.offset}).`;
  };
}
