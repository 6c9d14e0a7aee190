import { encode } from 'gpt-tokenizer';
import { formatSummaryMessage } from '../../src/core/agent/build-messages.js';
import type { RecordedRequest } from '../../tests/fakes/openai-server.js';

type Message = RecordedRequest['body']['messages'][number];

/** A recorded message's content as text (parts as their JSON). */
export const messageText = (m: Message): string =>
  typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? '');

/**
 * A request as a prefix-caching server sees it: tool definitions, then each message in order. Servers hash
 * the tokenised prompt in blocks; the share of one request that repeats the previous one's prefix is what
 * their cache can reuse.
 */
export function requestTokens(request: RecordedRequest): number[] {
  const parts: string[] = [];
  if (request.body.tools) parts.push(`tools\n${JSON.stringify(request.body.tools)}\n`);
  for (const m of request.body.messages) {
    const content = messageText(m);
    const calls = 'tool_calls' in m && m.tool_calls ? JSON.stringify(m.tool_calls) : '';
    parts.push(`<|${m.role}|>\n${content}${calls}\n`);
  }
  return encode(parts.join(''));
}

/** The share (0–1) of `next`'s tokens that are a prefix it shares with `previous`. */
export function prefixShare(previous: readonly number[], next: readonly number[]): number {
  const n = Math.min(previous.length, next.length);
  let i = 0;
  while (i < n && previous[i] === next[i]) i++;
  return next.length === 0 ? 1 : i / next.length;
}

const SUMMARY_PREFIX = formatSummaryMessage('');
const summaryOf = (r: RecordedRequest) =>
  r.body.messages.find((m) => m.role === 'system' && messageText(m).startsWith(SUMMARY_PREFIX));

/** Per agent request: the share of its prompt that repeats the previous agent request's prefix. */
export interface PrefixFigures {
  requests: number;
  average: number;
  /** Requests whose summary changed since the previous request (a compression landed in between). */
  afterCompression: { count: number; average: number; min: number };
  others: { average: number; min: number };
}

/** Prefix shares of consecutive agent requests, split by whether a compression landed in between. */
export function prefixFigures(agentRequests: readonly RecordedRequest[]): PrefixFigures {
  const shares: { share: number; compressed: boolean }[] = [];
  let previous: number[] | undefined;
  let previousSummary: string | undefined;
  for (const request of agentRequests) {
    const tokens = requestTokens(request);
    const summary = summaryOf(request);
    const summaryText = summary ? messageText(summary) : undefined;
    if (previous)
      shares.push({ share: prefixShare(previous, tokens), compressed: summaryText !== previousSummary });
    previous = tokens;
    previousSummary = summaryText;
  }
  const avg = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 1);
  const after = shares.filter((s) => s.compressed).map((s) => s.share);
  const others = shares.filter((s) => !s.compressed).map((s) => s.share);
  return {
    requests: agentRequests.length,
    average: avg(shares.map((s) => s.share)),
    afterCompression: {
      count: after.length,
      average: avg(after),
      min: after.length ? Math.min(...after) : 1,
    },
    others: { average: avg(others), min: others.length ? Math.min(...others) : 1 },
  };
}
