/** Whether a tool's calls wait for a person: never, every time, or until approved once in a channel. */
export type ToolApproval = 'never' | 'always' | 'once-per-channel';

/** The approval policies, in the order they are listed. */
export const TOOL_APPROVALS: readonly ToolApproval[] = ['never', 'always', 'once-per-channel'];

/** Who may decide a pending call: the person who asked, admins, or either. */
export type Approvers = 'asker' | 'admins' | 'asker+admins';

/** The approval settings, named as in the configuration. */
export interface ApprovalSettings {
  APPROVERS: Approvers;
  /** How long a pending call waits; past it the call is denied and the model told so. */
  APPROVAL_TIMEOUT_MS: number;
  /** The policy of MCP tools whose mcp.json entry names none. */
  APPROVAL_DEFAULT_MCP: ToolApproval;
}

/** The policy in force for a tool: its own, else `never` for built-ins and APPROVAL_DEFAULT_MCP for MCP tools. */
export function approvalOf(
  tool: { approval?: ToolApproval | undefined; origin?: 'mcp' | undefined },
  settings: ApprovalSettings,
): ToolApproval {
  return tool.approval ?? (tool.origin === 'mcp' ? settings.APPROVAL_DEFAULT_MCP : 'never');
}
