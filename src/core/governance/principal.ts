import { BlockList, isIP } from 'node:net';

/**
 * Who someone is, bound to where it was proven: `slack:T…:U…` (or `slack:U…` when the team is not known),
 * `discord:<snowflake>`, `web:<browser>`, `console:<name>`. Access lists, admins, limits, budgets, usage
 * and votes are keyed by it, so an ID claimed on one surface never stands for a person of another.
 */
export type Principal = string;

/** The platforms a principal can be proven on. */
export const PRINCIPAL_PLATFORMS = ['slack', 'discord', 'web', 'console'] as const;

/** A Slack user, with the team their ID belongs to when the event names it. */
export function slackPrincipal(user: string, team?: string | undefined): Principal {
  return team ? `slack:${team}:${user}` : `slack:${user}`;
}

/** A Discord user. */
export function discordPrincipal(user: string): Principal {
  return `discord:${user}`;
}

/** A browser the web chat issued an ID to (token or loopback users, not signed in). */
export function webPrincipal(browser: string): Principal {
  return `web:${browser}`;
}

/**
 * How a principal reads to people when no name is known for it: a browser that did not sign in as
 * `browser 1a2b` (the start of its ID, enough to tell a few apart, too little to act as it); others as they are.
 */
export function principalLabel(principal: Principal): string {
  return principal.startsWith('web:')
    ? `browser ${principal.slice('web:'.length, 'web:'.length + 4)}`
    : principal;
}

/** The person at the terminal. */
export function consolePrincipal(name: string): Principal {
  return `console:${name}`;
}

/** The platform a principal was proven on (`slack`, `discord`, `web`, `console`). */
export function principalPlatform(principal: Principal): string {
  return principal.slice(0, principal.indexOf(':'));
}

/** The platform's own user ID: the last part of a principal. */
export function principalUser(principal: Principal): string {
  return principal.slice(principal.lastIndexOf(':') + 1);
}

/** The platforms a bare ID in ADMIN_USERS, ALLOW_USERS or BLOCK_USERS stands for (kept for old configurations). */
const BARE_ID_PLATFORMS = new Set(['slack', 'discord']);

/**
 * Whether a configured entry names `principal`: `slack:U…` names that user in any team, `slack:T…:U…` only
 * in that team, other prefixed entries must match exactly, and a bare ID names a Slack or Discord user only
 * (never a web or terminal one).
 */
export function entryNames(entry: string, principal: Principal): boolean {
  const platform = principalPlatform(principal);
  if (!entry.includes(':')) return BARE_ID_PLATFORMS.has(platform) && principalUser(principal) === entry;
  if (entry === principal) return true;
  if (platform !== 'slack' || !entry.startsWith('slack:')) return false;
  const parts = entry.split(':');
  return parts.length === 2 && principalUser(principal) === parts[1];
}

/** Whether any entry of `list` names `principal`. */
export function listNames(list: readonly string[], principal: Principal): boolean {
  return list.some((entry) => entryNames(entry, principal));
}

/** An address entry of BLOCK_USERS: `addr:203.0.113.7`, `addr:203.0.113.0/24` or `addr:2001:db8::/48`. */
export function isAddressEntry(entry: string): boolean {
  return entry.startsWith('addr:');
}

/** The addresses and networks `addr:` entries name, for matching where a question came from. */
function addressList(entries: readonly string[]): BlockList | undefined {
  const list = new BlockList();
  let any = false;
  for (const entry of entries) {
    if (!isAddressEntry(entry)) continue;
    const [address = '', prefix] = entry.slice('addr:'.length).split('/');
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (!isIP(address)) continue;
    if (prefix === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(prefix), family);
    any = true;
  }
  return any ? list : undefined;
}

const addressLists = new WeakMap<readonly string[], BlockList | undefined>();

/**
 * Whether an origin (`addr:<IPv4>` or `addr:<IPv6 /64>`, as the web chat counts clients) is named by an
 * `addr:` entry of `list`: a browser that drops its cookies is still blocked where it asks from.
 */
export function listNamesOrigin(list: readonly string[], origin: string | undefined): boolean {
  if (!origin || !isAddressEntry(origin)) return false;
  if (!addressLists.has(list)) addressLists.set(list, addressList(list));
  const addresses = addressLists.get(list);
  if (!addresses) return false;
  const address = origin.slice('addr:'.length).split('/')[0] ?? '';
  const family = isIP(address);
  return family !== 0 && addresses.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

/**
 * The entries of the user lists that name a user ID in any team: bare IDs and team-less `slack:U…`, for a
 * one-time warning that `slack:T…:U…` (or `discord:…`) is safer.
 */
export function bareEntries(...lists: (readonly string[])[]): string[] {
  const teamless = (entry: string) => !entry.includes(':') || /^slack:[UW][A-Z0-9]+$/.test(entry);
  return [...new Set(lists.flat().filter(teamless))];
}
