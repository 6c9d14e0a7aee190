import type { ApprovalStore } from '../ports/approval-store.js';
import type { ToolSource } from '../ports/tool-source.js';
import { type ApprovalSettings, approvalOf } from './approval-policy.js';

/** How `/settings approvals` is used. */
export const APPROVALS_USAGE = 'Usage: /settings approvals | approvals revoke <tool>|all';

/** What `/settings approvals` needs. */
export interface ApprovalsCommandDeps {
  settings: ApprovalSettings;
  tools: ToolSource;
  store?: ApprovalStore | undefined;
}

/**
 * `/settings approvals`: the tools that ask before they run and the ones this channel approved once;
 * `approvals revoke <tool>|all` makes granted tools ask again. The caller checks the asker is an admin.
 */
export function createApprovalsCommand(deps: ApprovalsCommandDeps) {
  const { settings, tools, store } = deps;
  return async (settingsKey: string, args: string): Promise<string> => {
    const [word = '', target = '', ...extra] = args.trim().split(/\s+/).filter(Boolean);
    if (word === '' || word === 'show') return show(settingsKey);
    if (word === 'revoke' && target && extra.length === 0) {
      if (!store) return 'Approvals are not kept here, so there is nothing to revoke.';
      const revoked = await store.revokeApprovalGrants(settingsKey, target === 'all' ? undefined : target);
      if (target === 'all')
        return `Revoked ${revoked} grant${revoked === 1 ? '' : 's'}: every such tool asks again here.`;
      return revoked > 0
        ? `Revoked: ${target} asks again before it runs here.`
        : `${target} was not granted here.`;
    }
    return APPROVALS_USAGE;
  };

  async function show(settingsKey: string): Promise<string> {
    const grants = new Map((store ? await store.approvalGrants(settingsKey) : []).map((g) => [g.tool, g]));
    const lines = tools
      .current()
      .map((tool) => ({ name: tool.name, policy: approvalOf(tool, settings) }))
      .filter((t) => t.policy !== 'never')
      .map(({ name, policy }) => {
        const grant = grants.get(name);
        if (policy === 'always') return `• ${name}: asks every time`;
        return grant
          ? `• ${name}: asked once; approved here by ${grant.grantedBy} on ${new Date(grant.at).toISOString().slice(0, 10)}`
          : `• ${name}: asks once per channel (not approved here yet)`;
      });
    const who =
      settings.APPROVERS === 'asker+admins'
        ? 'the asker or an admin'
        : settings.APPROVERS === 'asker'
          ? 'the asker'
          : 'an admin';
    const head = `Tool calls that wait for ${who} to approve them (denied after ${Math.round(settings.APPROVAL_TIMEOUT_MS / 1000)} s):`;
    if (lines.length === 0) return 'No tool here asks for approval before it runs.';
    return [head, ...lines, APPROVALS_USAGE].join('\n');
  }
}
