import type { ApprovalRecord } from '../../core/ports/approval-store.js';

/** A pending call's arguments as every surface shows them: pretty JSON, or the text itself when they are text. */
export function argumentsText(input: unknown): string {
  return typeof input === 'string' ? input : (JSON.stringify(input, null, 2) ?? '');
}

/** The columns of an approvals listing, in order (the table and the CSV agree). */
export const APPROVAL_COLUMNS = [
  'decided at (UTC)',
  'tool',
  'outcome',
  'decided by',
  'asker',
  'conversation',
  'arguments sha256',
  'reason',
] as const;

/** One decision as the cells of a listing: ISO time, tool, outcome, who, where, digest, reason. */
export function approvalCells(r: ApprovalRecord): string[] {
  return [
    new Date(r.at).toISOString().slice(0, 19).replace('T', ' '),
    r.tool,
    r.outcome,
    r.decidedBy ?? '—',
    r.asker ?? '—',
    r.key,
    r.argsDigest,
    r.reason ?? '',
  ];
}

/** Decisions as short lines for `/usage` (admins): `2026-12-03 08:10 github__create_issue approved by slack:…`. */
export function approvalLines(title: string, records: readonly ApprovalRecord[]): string[] {
  if (records.length === 0) return [`${title}: none`];
  return [
    `${title}:`,
    ...records.map((r) => {
      const when = new Date(r.at).toISOString().slice(0, 16).replace('T', ' ');
      const who = r.decidedBy ? ` by ${r.decidedBy}` : '';
      const why = r.reason ? ` (“${r.reason.slice(0, 80)}”)` : '';
      return `  ${when} ${r.tool} ${r.outcome}${who}${why} [args ${r.argsDigest.slice(0, 12)}]`;
    }),
  ];
}
