import type { webApi } from '@slack/bolt';
import type { AskRequest, Assistant } from '../../core/assistant.js';
import type { ThreadFollows } from '../../core/follow/thread-follows.js';
import type { Logger } from '../../core/logger.js';
import type { Arrival } from '../../core/ports/run-queue.js';
import type { RunRegistry } from '../shared/run-registry.js';
import { askAndRenderRun, stepsPlacement } from '../shared/run-renderer.js';
import type { AgentSessions } from './agent-sessions.js';
import type { AgentSurface } from './agent-surface.js';
import { withSlackApprovals } from './approval-messages.js';
import type { SlackAsker } from './asker.js';
import { createFallbackRenderer } from './fallback-renderer.js';
import type { SlackPlace } from './live-message.js';
import { createNativeRenderer } from './native-renderer.js';
import { type AnswerLayout, createSlackRenderer, type SlackRenderer } from './render.js';
import { withSessionStatus } from './session-renderer.js';
import type { RunSession, SessionStatuses } from './session-status.js';
import type { StreamBudget } from './stream-budget.js';
import { channelType, type StreamingSupport } from './streaming-support.js';
import { answeredThreads } from './thread-follow.js';
import type { UserDirectory } from './user-names.js';

/** A question ready to run: who asked what, in which conversation, and where the answer goes. */
export interface Question {
  key: string;
  /** Whose settings apply: the channel, for a question inside one of its threads. */
  settingsKey?: string | undefined;
  userId: string;
  /** The workspace the question came through (the app's installation): keys, settings, rate limits. */
  teamId: string;
  /** The asker's own team (a Slack Connect guest's or an Enterprise Grid member's may differ): `recipient_team_id`. */
  askerTeamId?: string | undefined;
  /** The event's `channel_type`, when it says. */
  channelType?: string | undefined;
  text: string;
  place: SlackPlace;
  layout: AnswerLayout;
  /** The question's own message; without one (`/ask`) the answer cannot stream natively into its thread. */
  questionTs?: string | undefined;
  /** Asked in a DM with the app (its agent view): the thread gets a title. */
  dm?: boolean | undefined;
  /** Mrkdwn shown above the answer (for `/ask`, whose command text nobody else sees). */
  context?: string | undefined;
  /** Who asks, for access lists, limits and usage records, and their looked-up name. */
  asker: SlackAsker;
  /** The thread's earlier messages (read in the channel's turn). */
  thread?: AskRequest['context'];
  /** The files attached to the question. */
  attachments?: AskRequest['attachments'];
  /** A run going on after a restart (see AskRequest.resume). */
  resume?: AskRequest['resume'];
  /** Told the answer message's ts once the run answered. */
  onAnswered?: ((ts: string) => void) | undefined;
  /** Its place in the channel's line, taken when the event arrived. */
  arrival?: Arrival | undefined;
}

/** What running a question needs. */
export interface RunDeps {
  assistant: Assistant;
  users: UserDirectory;
  intervalMs: number;
  /** ANSWER_MAX_MESSAGES. */
  maxMessages: number;
  logger: Logger;
  /** The runs going on, for their Stop buttons. */
  runs: RunRegistry;
  /** Which workspaces get native streaming. */
  streaming: StreamingSupport;
  /** SLACK_TASK_DISPLAY. */
  taskDisplay: 'timeline' | 'plan';
  agent: AgentSurface;
  /** Streaming calls per workspace: a question past it answers with edited messages. */
  budget: StreamBudget;
  /** Runs streaming in each thread, for Slack's own stop button. */
  sessions: AgentSessions;
  /** The agent session of each streamed run's thread: status and title. */
  statuses: SessionStatuses;
  /** The clock streams measure their age by (tests move it). */
  now?: (() => number) | undefined;
  /** Threads answered in are followed (follow-ups need no mention); unset: only mentions are answered. */
  follows?: ThreadFollows | undefined;
}

/**
 * Asks the assistant and renders the run in Slack: natively streamed into the question's thread when the
 * workspace allows it, else the edit layout (placeholder posted at once, then edited). The display name
 * lookup runs meanwhile. Resolves to false when no answer message could be posted at all (e.g. the bot is
 * not in the channel).
 */
export async function runQuestion(
  deps: RunDeps,
  client: webApi.WebClient,
  question: Question,
  shutdown: AbortSignal,
): Promise<boolean> {
  const logger = deps.logger.child({ key: question.key });
  const settingsKey = question.settingsKey ?? question.key;
  const run = deps.runs.start(question.userId, shutdown);
  const steps = await stepsPlacement(deps.assistant, settingsKey, logger);
  const edit = () =>
    createSlackRenderer({
      client,
      place: question.place,
      layout: question.layout,
      steps,
      intervalMs: deps.intervalMs,
      maxMessages: deps.maxMessages,
      logger,
      context: question.context,
      runId: run.id,
    });
  // Not awaited here: the assistant awaits the name in the channel's turn, so lookups cannot reorder questions.
  const author = question.asker.user().then((user) => user.name);
  const { channel } = question.place;
  const type = channelType(channel, question.channelType);
  // A question past the workspace's streaming budget is answered with edits: no error, nothing logged.
  const ticket =
    question.questionTs && deps.streaming.native(question.teamId, type)
      ? deps.budget.take(question.teamId)
      : undefined;
  let session: ReturnType<AgentSessions['open']> | undefined;
  let agentSession: RunSession | undefined;
  let renderer: SlackRenderer;
  if (question.questionTs && ticket) {
    const threadTs = question.place.threadTs ?? question.questionTs;
    const opened = deps.sessions.open(question.teamId, channel, threadTs, run.id);
    session = opened;
    agentSession = deps.statuses.open(client, {
      team: question.teamId,
      channel,
      threadTs,
      question: question.text,
      dm: question.dm === true,
    });
    const statusOfRun = agentSession;
    renderer = createFallbackRenderer(
      (fallBack) =>
        createNativeRenderer({
          client,
          channel,
          threadTs,
          recipient: { userId: question.userId, teamId: question.askerTeamId ?? question.teamId },
          taskDisplay: deps.taskDisplay,
          steps,
          intervalMs: deps.intervalMs,
          maxMessages: deps.maxMessages,
          runId: run.id,
          logger,
          ticket,
          now: deps.now,
          session: statusOfRun,
          // Slack's stop names nobody: the stream is the asker's, so it is said they stopped it.
          onUserStop: () =>
            void deps.runs.stop(run.id, { userId: question.userId, name: author, admin: () => true }),
          onStream: (ts, closed) => opened.streaming(ts, closed),
          onUnstarted(err, unsupported) {
            if (unsupported) deps.streaming.refused(question.teamId, type, err);
            fallBack();
          },
        }),
      edit,
    );
  } else {
    renderer = edit();
  }
  const shown = renderer;
  // Pending tool calls wait in the thread the steps go to: the question's, or the answer's replies.
  renderer = withSlackApprovals(renderer, {
    client,
    channel,
    threadTs: async () =>
      question.place.threadTs ??
      (ticket && question.questionTs ? question.questionTs : await shown.answerTs()),
    logger,
  });
  if (agentSession) renderer = withSessionStatus(renderer, agentSession);
  // Where the placeholder is, so that another replica can say so there if this one dies before answering.
  void renderer.answerTs().then((ts) => {
    if (ts) question.arrival?.placed({ channel: question.place.channel, ts });
  });
  const view = await askAndRenderRun(run, {
    assistant: deps.assistant,
    request: {
      key: question.key,
      settingsKey,
      author,
      text: question.text,
      asker: question.asker.asker,
      context: question.thread,
      attachments: question.attachments,
      arrival: question.arrival,
      resume: question.resume,
    },
    renderer,
    logger,
  }).finally(() => session?.close());
  const ts = await renderer.answerTs();
  if (ts && view.phase === 'final') {
    question.onAnswered?.(ts);
    if (!question.dm) {
      const { principal } = question.asker.asker;
      // Asked in a thread: that thread. At the top: the question's thread and the answer's (a reply in the
      // question's thread when streamed natively, which no follow-up can be the parent of: a harmless row).
      const { threadTs } = question.place;
      const timestamps = threadTs ? [threadTs] : [question.questionTs, ts];
      await deps.follows?.answered(answeredThreads(question.teamId, channel, timestamps), principal);
    }
  }
  return renderer.delivered();
}
