import type { AgentEventHandler } from '../agent/events.js';
import type { AskOutcome, AskRequest, Assistant } from '../assistant.js';
import { StorageError } from '../errors.js';
import { REFUSED_MESSAGE } from '../governance/governor.js';
import { groupsInForce } from '../settings/select-tools.js';
import { bindToActive, channelHash, inSpan, startSpan, tracesContent } from '../tracing/spans.js';
import { createTurnAnswerer } from './answer-in-turn.js';
import type { AssistantDeps } from './assistant-deps.js';
import { createGovernedRuns } from './governed-run.js';
import { createRunQueue } from './run-queue.js';
import {
  BUSY_MESSAGE,
  busy,
  CLOSING_MESSAGE,
  cancelled,
  failed,
  SETTINGS_ADMINS_ONLY,
  STORAGE_UNAVAILABLE_MESSAGE,
} from './run-replies.js';

/**
 * The platform-neutral service: runs each question through the agent with its channel's memory, one at a
 * time per channel in arrival order, and remembers the turn only when the run answered (and was not
 * cancelled).
 */
export function createAssistant(deps: AssistantDeps): Assistant {
  const { memory, governor, logger } = deps;
  const queue = deps.queue ?? createRunQueue(deps.limits);
  const turns = createTurnAnswerer(deps);
  const governed = createGovernedRuns(deps, turns);
  let closing = false;

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
        governed.observe(request.asker.platform, 'refused');
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
          return governed.run(request, onEvent, placeLost);
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
    reset: turns.reset,
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
    health: turns.health,
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
