import type { RunProfile } from '../agent/types.js';
import type { ContentPart } from '../llm/types.js';
import type { ApprovalWait, WaitDecision } from '../ports/approval-wait-store.js';
import type { ScheduleCreator } from '../ports/schedule-store.js';
import type { AgentCheckpoint, GateVerdict } from './approval-gate.js';
import { deniedObservation, expiredObservation } from './approval-wording.js';

/** Who asked what, and where: what a run resumed after a restart needs beyond the agent's checkpoint. */
export interface ResumableRun {
  /** The asker's display name, and the question as memory keeps it. */
  author: string;
  question: string;
  /** The asker as the platform knew them (serialisable): who the resumed run is asked as. */
  asker: ScheduleCreator;
  /** Whose settings apply (a thread's parent channel). */
  settingsKey: string;
  profile?: RunProfile | undefined;
  /** The usage record the question opened, completed by the resumed run. */
  usageId?: number | undefined;
}

/** What a waiting call keeps (`ApprovalWait.state`). */
export interface WaitState {
  run: ResumableRun;
  callId: string;
  /** The call's checked arguments (shown in full one click away). */
  input: unknown;
  checkpoint: AgentCheckpoint;
}

/** A run taken over after its process stopped while calls of it waited: where it answers and how it goes on. */
export interface ResumedRun {
  platform: string;
  key: string;
  run: ResumableRun;
  checkpoint: AgentCheckpoint;
  /** The decision on each call that waited, by call id. */
  decided: ReadonlyMap<string, GateVerdict>;
  /** How each waiting call ended, for the line above the answer and the steps. */
  outcomes: readonly ResumedOutcome[];
}

/** How one waiting call of a resumed run ended. */
export interface ResumedOutcome {
  id: string;
  callId: string;
  tool: string;
  /** When it started to wait. */
  requestedAt: number;
  decision: WaitDecision;
}

/** The longest state kept as it is; a larger one (images) keeps its images as a line of text instead. */
const MAX_STATE_CHARS = 2_000_000;
const IMAGE_LEFT_OUT: ContentPart = { type: 'text', text: '[an image, not kept while the call waited]' };

/** The state as stored: JSON, with images left out when it would be too large. */
export function serializeWaitState(state: WaitState): string {
  const text = JSON.stringify(state);
  if (text.length <= MAX_STATE_CHARS) return text;
  const messages = state.checkpoint.messages.map((m) =>
    m.role === 'user' && Array.isArray(m.content)
      ? { ...m, content: m.content.map((p) => (p.type === 'text' ? p : IMAGE_LEFT_OUT)) }
      : m,
  );
  return JSON.stringify({ ...state, checkpoint: { ...state.checkpoint, messages } });
}

/** The state of a stored wait; undefined when it cannot be read (written by another version, damaged). */
export function parseWaitState(wait: ApprovalWait): WaitState | undefined {
  try {
    const state = JSON.parse(wait.state) as WaitState;
    return state?.checkpoint?.messages && state.run?.asker && state.callId ? state : undefined;
  } catch {
    return undefined;
  }
}

/** How a decided call goes on: it runs, or the model reads why not. */
export function verdictOf(tool: string, decision: WaitDecision, timeoutMs: number): GateVerdict {
  switch (decision.outcome) {
    case 'approved':
      return { run: true };
    case 'denied':
      return { run: false, observation: deniedObservation(tool, decision.reason) };
    default:
      return { run: false, observation: expiredObservation(tool, timeoutMs) };
  }
}
