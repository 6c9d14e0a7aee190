/** How a pending tool call ended: a person approved or denied it, no one answered in time, or the run stopped. */
export type ApprovalOutcome = 'approved' | 'denied' | 'expired' | 'stopped';

/** One decision on a tool call that waited for a person, as kept for `/usage` and `npm run usage -- --approvals`. */
export interface ApprovalRecord {
  /** The approval's id (the one its buttons carry); a decision is recorded once per id. */
  id: string;
  /** Milliseconds since the epoch when the decision was made. */
  at: number;
  /** When the call started to wait. */
  requestedAt: number;
  /** The surface the question came from: `discord`, `slack`, `web`, `console`. */
  platform: string;
  /** The conversation the run answered in. */
  key: string;
  tool: string;
  /** SHA-256 (hex) of the call's arguments as JSON: which call it was, without keeping what it said. */
  argsDigest: string;
  /** Who asked the question (a principal), when known. */
  asker?: string | undefined;
  /** Who pressed (a principal); none for `expired` and `stopped`. */
  decidedBy?: string | undefined;
  outcome: ApprovalOutcome;
  /** The reason a person gave with a denial. */
  reason?: string | undefined;
}

/** A tool approved once in a channel (policy `once-per-channel`): later calls there run without asking. */
export interface ApprovalGrant {
  /** The channel's settings key. */
  settingsKey: string;
  tool: string;
  /** Who approved the call that granted it (a principal). */
  grantedBy: string;
  at: number;
}

/** Where approval decisions and per-channel grants are kept. */
export interface ApprovalStore {
  /** Records a decision; a second record with the same id is ignored (a decision acts once). */
  recordApproval(record: ApprovalRecord): Promise<void>;
  /** Decisions made at `since <= at < until`, newest first, at most `limit` (default 100). */
  listApprovals(query: {
    since: number;
    until: number;
    limit?: number | undefined;
  }): Promise<ApprovalRecord[]>;
  /** Grants a tool in a channel; granting it again keeps the first grant. */
  grantApproval(grant: ApprovalGrant): Promise<void>;
  /** The tools granted in a channel, by tool name. */
  approvalGrants(settingsKey: string): Promise<ApprovalGrant[]>;
  /** Revokes one tool's grant in a channel, or all of them; returns how many were revoked. */
  revokeApprovalGrants(settingsKey: string, tool?: string | undefined): Promise<number>;
}
