import type { Asker } from '../governance/asker.js';
import type { Principal } from '../governance/principal.js';
import type { Logger } from '../logger.js';
import type { ApprovalRecord, ApprovalStore } from '../ports/approval-store.js';
import type { ApprovalWaitStore } from '../ports/approval-wait-store.js';
import type { ApprovalGate } from './approval-gate.js';
import type { ApprovalSettings } from './approval-policy.js';
import type { RunResumer } from './orphan-sweeper.js';
import type { ResumableRun } from './wait-state.js';

/** Who pressed Approve or Deny: their principal, the name the steps show, and the platform's admin say. */
export interface Approver {
  principal: Principal;
  name: string;
  platformAdmin?: Asker['platformAdmin'];
}

/** A press: approve, or deny with an optional reason the model reads. */
export type ApprovalVerdict = { approve: true } | { approve: false; reason?: string | undefined };

/** What a press did; `message` is the private line for a press that did nothing. */
export type ApprovalPress =
  | {
      status: 'approved' | 'denied';
      /**
       * The decided call's run is not in this process (another replica's, or one that stopped): nothing here
       * updates its approval message, so the platform says how it ended there (`note`) and drops its buttons.
       */
      elsewhere?: DecidedElsewhere | undefined;
    }
  | { status: 'forbidden' | 'expired'; message: string };

/** The call a pending approval waits on, for one who may decide it; else why they may not see it. */
export type ApprovalCallView =
  | { status: 'allowed'; tool: string; input: unknown }
  | { status: 'forbidden' | 'expired'; message: string };

/** A call waiting for a person as its approval message shows it. */
export interface WaitingCall {
  id: string;
  step: number;
  tool: string;
  input: unknown;
  approvers: ApprovalSettings['APPROVERS'];
  expiresAt: number;
}

/** A call decided for a run not in this process: its approval message as it was, and how it ended. */
export interface DecidedElsewhere {
  note: string;
  call: WaitingCall;
}

/** The run a gate guards: where it answers and who asked. */
export interface GatedRun {
  platform: string;
  key: string;
  /** Whose grants apply (a thread's channel); `key` when unset. */
  settingsKey?: string | undefined;
  asker?: Pick<Asker, 'principal'> | undefined;
  /** What resuming the run needs if its process stops while a call waits; such calls do not outlive it when unset. */
  resumable?: (() => Promise<ResumableRun>) | undefined;
}

/** Tool calls that wait for a person, the presses that decide them, and the record of every decision. */
export interface Approvals {
  readonly settings: ApprovalSettings;
  /** The gate for one run. */
  gateFor(run: GatedRun): ApprovalGate;
  /** Decides pending approval `id` for `who`; acts once, and only for those APPROVERS names. */
  decide(id: string, who: Approver, verdict: ApprovalVerdict): Promise<ApprovalPress>;
  /**
   * Whether `who` may decide `id` now, without deciding it: a platform asks before it opens a form for the
   * reason of a denial, so only those who may deny see one.
   */
  check(id: string, who: Approver): Promise<ApprovalPress | { status: 'allowed' }>;
  /** The tool and whole arguments of pending approval `id`, for one who may decide it. */
  call(id: string, who: Approver): Promise<ApprovalCallView>;
  /** Calls waiting for a person now. */
  pending(): number;
  /**
   * Calls of `key` kept from a process that stopped while they waited (no run here waits on them): what a
   * platform that cannot keep buttons across a restart (the terminal) asks about again.
   */
  kept(key: string): Promise<WaitingCall[]>;
  /** Goes on with orphaned runs through `resumer` from now on (once the platforms are up). */
  start(resumer: RunResumer): void;
  /** Says this process still waits on its calls, learns of decisions made elsewhere, takes over orphans. */
  sweep(): Promise<void>;
  /** Stops sweeping and waits for runs being resumed to be handed over. */
  stop(): Promise<void>;
  /** The latest decisions of the last 30 days (admins' `/usage`); none when decisions are not kept. */
  recent(limit: number): Promise<ApprovalRecord[]>;
}

/** What the approvals need. */
export interface ApprovalsDeps {
  settings: ApprovalSettings;
  /** Where decisions and grants are kept; without it decisions are only logged and nothing is granted. */
  store?: ApprovalStore | undefined;
  /**
   * Where waiting calls are kept, so that a press on any replica reaches them and a restart loses none;
   * without it a call waits in this process only.
   */
  waits?: ApprovalWaitStore | undefined;
  isAdmin: (who: Asker) => Promise<boolean>;
  logger?: Logger | undefined;
  now?: (() => number) | undefined;
  /** This process's name on the calls it waits on; random when unset. */
  owner?: string | undefined;
  /** How often this process says it still waits on its calls and looks for orphans (ms); 0: only on `sweep`. */
  beatMs?: number | undefined;
  /** Calls whose process has not been heard from for this long are orphans (ms). */
  staleMs?: number | undefined;
}

/** The longest denial reason kept and shown to the model. */
export const MAX_REASON_CHARS = 1000;
