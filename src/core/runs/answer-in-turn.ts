import type { AgentEventHandler, RunResult } from '../agent/events.js';
import { rememberedAnswer } from '../agent/notes.js';
import type { RunProfile } from '../agent/types.js';
import { showingDecisions } from '../approvals/resumed-decisions.js';
import type { AskRequest } from '../assistant.js';
import { ContextUnavailableError } from '../errors.js';
import { type InputParts, prepareInput, rememberedQuestion } from '../input/prepare-input.js';
import { DEFAULT_INPUT_SETTINGS } from '../input/types.js';
import type { Logger } from '../logger.js';
import type { ChannelMemory } from '../memory/types.js';
import { PLACE_KEPT } from '../ports/run-queue.js';
import { creatorOf } from '../schedules/creator.js';
import { inSpan } from '../tracing/spans.js';
import { linkedSignal } from '../util/linked-signal.js';
import { pauseIfBusy } from '../util/pauser.js';
import type { AssistantDeps } from './assistant-deps.js';
import { promptCacheKey } from './prompt-cache-key.js';
import { cancelled, failed, NOT_REMEMBERED_MESSAGE } from './run-replies.js';

/** What answering in a channel's turn needs. */
export type TurnDeps = Pick<
  AssistantDeps,
  'agent' | 'memory' | 'governor' | 'logger' | 'input' | 'runPlaces' | 'approvals'
>;

/** Runs questions through the agent in their channel's turn, and remembers the turns that answered. */
export interface TurnAnswerer {
  /**
   * Answers `request` (or goes on with a resumed run): memory and input read, the agent run, the turn
   * remembered unless it was cancelled, reset meanwhile, or the line moved on without this replica.
   */
  answer(
    request: AskRequest,
    onEvent: AgentEventHandler,
    profile: RunProfile | undefined,
    placeLost: AbortSignal,
    usageId?: number,
  ): Promise<RunResult>;
  /** Forgets a channel; a run that started before must not write its turn back afterwards. */
  reset(key: string): Promise<void>;
  /** Set while turns cannot be stored (for /readyz); cleared by the next turn stored. */
  health(): string | undefined;
}

/** Creates the answerer of questions in their channel's turn. */
export function createTurnAnswerer(deps: TurnDeps): TurnAnswerer {
  const { agent, memory, governor, logger } = deps;
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

  return {
    answer,
    async reset(key) {
      epochs.set(key, (epochs.get(key) ?? 0) + 1);
      await memory.reset(key);
    },
    health: () => writeFailure,
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
