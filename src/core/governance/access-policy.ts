import type { Asker } from './asker.js';
import { listNames, listNamesOrigin, principalPlatform } from './principal.js';

/** Who may ask, named as in the configuration. */
export interface AccessPolicy {
  ALLOW_USERS: readonly string[];
  BLOCK_USERS: readonly string[];
  ALLOW_CHANNELS: readonly string[];
  BLOCK_CHANNELS: readonly string[];
  ALLOW_ROLES: readonly string[];
  ALLOW_DMS: boolean;
  ADMIN_USERS: readonly string[];
}

/** Whether an asker may ask; `rule` names the setting that refused them, for the log. */
export interface AccessDecision {
  allowed: boolean;
  rule?: string;
}

/**
 * True for admins: listed in ADMIN_USERS, or administrators of the place by the platform's own account. A
 * browser that has not signed in (`web:…`) is never an admin, whatever it is called.
 */
export async function isAdmin(
  policy: Pick<AccessPolicy, 'ADMIN_USERS'>,
  asker: Pick<Asker, 'principal' | 'platformAdmin'>,
): Promise<boolean> {
  if (principalPlatform(asker.principal) === 'web') return false;
  if (listNames(policy.ADMIN_USERS, asker.principal)) return true;
  try {
    return (await asker.platformAdmin) === true;
  } catch {
    return false; // a failed lookup grants nothing
  }
}

/**
 * Applies the access lists: a block always wins; a platform-gated asker passes the allow lists; in a DM only ALLOW_DMS counts of the channel rules; an
 * empty allow list lets everyone in; ALLOW_USERS and ALLOW_ROLES each suffice; admins pass the user lists
 * and ALLOW_DMS. Admin rights are looked up only when a rule depends on them.
 */
export async function decideAccess(policy: AccessPolicy, asker: Asker): Promise<AccessDecision> {
  const refuse = (rule: string): AccessDecision => ({ allowed: false, rule });
  if (listNames(policy.BLOCK_USERS, asker.principal) || listNamesOrigin(policy.BLOCK_USERS, asker.origin)) {
    return refuse('BLOCK_USERS');
  }
  if (asker.platformGated) return { allowed: true };
  if (asker.dm) {
    if (!policy.ALLOW_DMS && !(await isAdmin(policy, asker))) return refuse('ALLOW_DMS');
  } else {
    const channel = asker.channelId ?? '';
    if (policy.BLOCK_CHANNELS.includes(channel)) return refuse('BLOCK_CHANNELS');
    if (policy.ALLOW_CHANNELS.length > 0 && !policy.ALLOW_CHANNELS.includes(channel)) {
      return refuse('ALLOW_CHANNELS');
    }
  }
  if (policy.ALLOW_USERS.length === 0 && policy.ALLOW_ROLES.length === 0) return { allowed: true };
  if (listNames(policy.ALLOW_USERS, asker.principal)) return { allowed: true };
  if ((asker.roles ?? []).some((role) => policy.ALLOW_ROLES.includes(role))) return { allowed: true };
  if (await isAdmin(policy, asker)) return { allowed: true };
  return refuse(policy.ALLOW_USERS.length > 0 ? 'ALLOW_USERS' : 'ALLOW_ROLES');
}
