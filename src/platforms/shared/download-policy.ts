import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { Agent, buildConnector, type Dispatcher } from 'undici';

/** Resolves a host name to all its addresses, as `dns.lookup` with `all: true` does. */
export type ResolveAll = (
  hostname: string,
  options: LookupAllOptions,
  callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/** Where one platform's files may be fetched from, and so where its credentials may go. */
export interface DownloadPolicy {
  /** The hosts as the asker reads them in a note, e.g. "Slack's file hosts". */
  label: string;
  /** `https://files.slack.com`, the configured API's origin…: files, redirects and credentials stay in them. */
  origins: ReadonlySet<string>;
  /** Connects only to public addresses, or to the configured API host whatever its address. */
  dispatcher: Dispatcher;
}

/** A connection refused because its address is private, loopback or link-local. */
export class BlockedAddressError extends Error {
  constructor(hostname: string) {
    super(`${hostname} resolves to a private, loopback or link-local address`);
    this.name = new.target.name;
  }
}

/** Addresses a download never reaches: private, loopback, link-local, shared, reserved, test, multicast. */
const NON_PUBLIC = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  NON_PUBLIC.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 96], // unspecified, loopback and the old IPv4-compatible form (IPv4-mapped is checked as IPv4)
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  NON_PUBLIC.addSubnet(net, prefix, 'ipv6');

/** True for an address a download must not reach (an IPv4 address inside IPv6 is judged as IPv4). */
export function isNonPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return NON_PUBLIC.check(address, 'ipv4');
  if (family !== 6) return true;
  const embedded = embeddedIPv4(address);
  if (embedded) return NON_PUBLIC.check(embedded, 'ipv4');
  return NON_PUBLIC.check(address, 'ipv6');
}

/** The IPv4 address inside an IPv4-mapped (::ffff:0:0/96), NAT64 (64:ff9b::/96) or 6to4 (2002::/16) address. */
function embeddedIPv4(address: string): string | undefined {
  const groups = expandIPv6(address);
  if (!groups) return undefined;
  const v4 = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  const zero = (from: number, to: number) => groups.slice(from, to).every((g) => g === 0);
  if (zero(0, 5) && groups[5] === 0xffff) return v4(groups[6]!, groups[7]!);
  if (groups[0] === 0x64 && groups[1] === 0xff9b && zero(2, 6)) return v4(groups[6]!, groups[7]!);
  if (groups[0] === 0x2002) return v4(groups[1]!, groups[2]!);
  return undefined;
}

/** The eight 16-bit groups of an IPv6 address (a zone and a dotted IPv4 tail are understood). */
function expandIPv6(address: string): number[] | undefined {
  let text = address.split('%')[0]!.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const parse = (part: string) => (part ? part.split(':').map((g) => Number.parseInt(g, 16)) : []);
  const front = parse(head);
  const back = tail === undefined ? [] : parse(tail);
  const fill = tail === undefined ? 0 : 8 - front.length - back.length;
  const groups = [...front, ...Array<number>(Math.max(fill, 0)).fill(0), ...back];
  return groups.length === 8 && groups.every((g) => g >= 0 && g <= 0xffff) ? groups : undefined;
}

/** A URL's host name without the brackets of an IPv6 literal, lower-case. */
function bareHost(hostname: string): string {
  return hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
}

/**
 * A dispatcher that checks the addresses it connects to, when it connects: a name is resolved once, every
 * address it resolves to must be public, and the connection goes to those addresses (so a second, different
 * answer cannot slip past, as in DNS rebinding). `trustedHost` (the configured API host) may be anything:
 * tests run the platforms' fakes on 127.0.0.1, and a deployment may point the API at a local proxy.
 */
function guardedDispatcher(trustedHost: string, resolve: ResolveAll): Dispatcher {
  const lookup = (
    hostname: string,
    options: { all?: boolean; family?: number; hints?: number },
    callback: (err: Error | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    resolve(hostname, { ...options, all: true } as LookupAllOptions, (err, addresses) => {
      if (err) return callback(err, []);
      const trusted = bareHost(hostname) === trustedHost;
      if (addresses.length === 0 || (!trusted && addresses.some((a) => isNonPublicAddress(a.address))))
        return callback(new BlockedAddressError(hostname), []);
      if (options.all) return callback(null, addresses);
      const [first] = addresses as [LookupAddress];
      callback(null, first.address, first.family);
    });
  };
  const connector = buildConnector({ lookup } as buildConnector.BuildOptions);
  return new Agent({
    connect(options, callback) {
      // Node connects to an address literal without a lookup, so literals are checked here.
      const host = bareHost(options.hostname);
      if (isIP(host) && host !== trustedHost && isNonPublicAddress(host))
        return callback(new BlockedAddressError(host), null);
      return connector(options, callback);
    },
  });
}

/** Options of {@link createDownloadPolicy}. */
export interface DownloadPolicyOptions {
  label: string;
  /** Hosts served over HTTPS (`files.slack.com`), or whole origins (`http://files.example:8080`). */
  hosts: readonly string[];
  /** SLACK_API_URL or DISCORD_API_URL: its origin is allowed too, and its host may have any address. */
  apiUrl: string;
  /** Name resolution (tests); `dns.lookup` by default. */
  resolve?: ResolveAll | undefined;
}

/** A policy allowing `hosts` over HTTPS and the configured API's origin. */
export function createDownloadPolicy(options: DownloadPolicyOptions): DownloadPolicy {
  const api = new URL(options.apiUrl);
  return {
    label: options.label,
    origins: new Set([
      ...options.hosts.map((host) => new URL(host.includes('://') ? host : `https://${host}`).origin),
      api.origin,
    ]),
    dispatcher: guardedDispatcher(bareHost(api.hostname), options.resolve ?? (dnsLookup as ResolveAll)),
  };
}

/** Why `address` may not be fetched under `policy`, in a few words; undefined when it may. */
export function refusal(policy: DownloadPolicy, address: string): string | undefined {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return 'its address is not valid';
  }
  if (url.username || url.password || !policy.origins.has(url.origin)) return `not on ${policy.label}`;
  return undefined;
}

const policies = new Map<string, DownloadPolicy>();
/** One policy (and one connection pool) per platform and API URL. */
function memo(key: string, make: () => DownloadPolicy): DownloadPolicy {
  const known = policies.get(key);
  if (known) return known;
  const policy = make();
  policies.set(key, policy);
  return policy;
}

/**
 * Slack's files: `files.slack.com` (where events' `url_private` points,
 * docs.slack.dev/reference/events/message/file_share) and SLACK_API_URL's origin, where the bot token may go.
 */
export function slackFilePolicy(apiUrl: string): DownloadPolicy {
  return memo(`slack ${apiUrl}`, () =>
    createDownloadPolicy({ label: "Slack's file hosts", hosts: ['files.slack.com'], apiUrl }),
  );
}

/**
 * Discord's attachments: its CDN and media proxy (@discordjs/rest `DefaultRestOptions.cdn` and `mediaProxy`)
 * and DISCORD_API_URL's origin.
 */
export function discordFilePolicy(apiUrl: string): DownloadPolicy {
  return memo(`discord ${apiUrl}`, () =>
    createDownloadPolicy({
      label: "Discord's CDN",
      hosts: ['cdn.discordapp.com', 'media.discordapp.net'],
      apiUrl,
    }),
  );
}
