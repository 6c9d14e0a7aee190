import type { AgentEventHandler, RunResult } from '../agent/events.js';
import type { RunProfile } from '../agent/types.js';
import type { AskOutcome, AskRequest } from '../assistant.js';
import type { Governor } from '../governance/governor.js';
import { listenForAnswers } from '../llm/model-answers.js';
import type { RunObservation } from '../ports/run-observer.js';
import type { UsageResult } from '../ports/usage-store.js';
import type { SettingsInForce } from '../settings/channel-settings.js';
import type { TurnAnswerer } from './answer-in-turn.js';
import type { AssistantDeps } from './assistant-deps.js';
import type { RunLogRecorder } from './run-log-recorder.js';
import { newRunRecorder, resumedRunRecorder } from './run-log-start.js';
import { createRunMeter } from './run-meter.js';
import { cancelled, failed } from './run-replies.js';

/** What governing a question needs. */
export type GovernedDeps = Pick<
  AssistantDeps,
  'governor' | 'observer' | 'logger' | 'settings' | 'runLogs' | 'startingModel'
>;

/** Questions run in their channel's turn under the channel's settings, the limits and the usage records. */
export interface GovernedRuns {
  /** Runs `request` in its turn: settings read, admitted against the limits, metered, recorded. */
  run(request: AskRequest, onEvent: AgentEventHandler, placeLost: AbortSignal): Promise<AskOutcome>;
  /** Tells the metrics how a question ended (one refused before its turn too). */
  observe(platform: string, outcome: RunObservation['outcome'], spent?: UsageResult): void;
}

/** Creates the governed runs, answering through `answerer`. */
export function createGovernedRuns(deps: GovernedDeps, answerer: TurnAnswerer): GovernedRuns {
  const { governor, logger } = deps;
  const { answer } = answerer;
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

  return { run: governed, observe };
}

/** What a channel's settings change for its runs. */
function profileOf(settings: SettingsInForce): RunProfile {
  return {
    instructions: settings.prompt,
    model: settings.model,
    protocol: settings.protocol,
    tools: settings.tools === 'all' ? undefined : settings.tools,
  };
}
