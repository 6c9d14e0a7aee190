import type { AgentCheckpoint, ApprovalGate, GateVerdict } from '../approvals/approval-gate.js';
import type { Deadline } from '../util/deadline.js';
import type { AgentEventHandler } from './events.js';
import type { ToolRunOptions } from './run-tools.js';

/** What the gate of one step is given. */
export interface StepGate {
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
export function gated(gate: ApprovalGate | undefined, options: StepGate): ToolRunOptions['approve'] {
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
