import type { AgentCheckpoint, GateVerdict } from '../approvals/approval-gate.js';
import { ModelError, ThinkthreadError } from '../errors.js';
import type { ChatMessage, TokenUsage } from '../llm/types.js';
import type { Logger } from '../logger.js';
import { fixedTools, type ToolSource } from '../ports/tool-source.js';
import type { Tool } from '../tools/define-tool.js';
import { createDeadline, type Deadline } from '../util/deadline.js';
import type { AgentDeps } from './agent-deps.js';
import { capAnswer, limitAnswerDeltas } from './answer-limit.js';
import { buildMessages, type PromptNotes } from './build-messages.js';
import type { AgentEvent, AgentEventHandler, RunResult } from './events.js';
import { LENGTH_CUT_FAILURE } from './notes.js';
import { timeNow } from './prompt-clock.js';
import type { Decision } from './protocol.js';
import { answered, failed } from './run-endings.js';
import { runToolCalls } from './run-tools.js';
import { gated } from './step-gate.js';
import { firstStop, maxSteps } from './stop-conditions.js';
import { createToolboxes } from './toolboxes.js';
import type { Agent, RunInput } from './types.js';

/** The longest question accepted; longer ones get a clear message instead of a huge prompt. */
export const MAX_MESSAGE_CHARS = 16_000;

/** Introduces the images tool calls returned, sent to vision models after the observations. */
const TOOL_IMAGES = 'The images returned by the tool calls above:';

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
  const forThisRun = createToolboxes({ ...deps, source, now });
  // Rendered now, a bad template fails at startup.
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

function isToolSource(tools: readonly Tool[] | ToolSource): tools is ToolSource {
  return !Array.isArray(tools);
}
