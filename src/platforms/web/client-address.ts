import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';

/**
 * The address a request comes from, as limits count it. By default the socket's peer; with WEB_TRUST_PROXY,
 * the last hop of X-Forwarded-For (what the proxy in front of us saw: earlier hops are the client's to
 * write). An IPv6 client is counted by its /64, which one household or phone holds whole.
 */
export function clientAddress(req: IncomingMessage, trustProxy: boolean): string {
  let address = req.socket.remoteAddress ?? 'unknown';
  if (trustProxy) {
    const header = req.headers['x-forwarded-for'];
    const hops = (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',');
    const last = hops.at(-1)?.trim() ?? '';
    if (isIP(last)) address = last;
  }
  return addressKey(address);
}

/** One key per client: IPv4 as is (v4-mapped IPv6 unwrapped), IPv6 by its /64 prefix. */
export function addressKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (isIP(address) !== 6) return address;
  const [head = '', tail = ''] = address.toLowerCase().split('::');
  const front = head ? head.split(':') : [];
  const back = address.includes('::') ? (tail ? tail.split(':') : []) : [];
  const groups = [...front, ...Array(Math.max(0, 8 - front.length - back.length)).fill('0'), ...back];
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
