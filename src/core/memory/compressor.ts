import type { TokenUsage } from '../llm/types.js';
import type { Logger } from '../logger.js';
import type { ConversationStore } from '../ports/conversation-store.js';
import { channelHash, inSpan } from '../tracing/spans.js';
import { turnsToFold } from './fold-policy.js';
import type { Summarizer } from './summarizer.js';
import { summaryTokens } from './tokens.js';
import type { MemoryBudget } from './types.js';

/** Rounds one compression may take (a round folds a batch; a stale round re-plans). */
const MAX_ROUNDS = 8;
/** How long a shutdown waits for compressions in flight before cancelling them. */
export const COMPRESSION_GRACE_MS = 30_000;

/** Folds old turns into the summary, in the background, one compression per key at a time. */
export interface Compressor {
  /** Compresses `key` in the background if the budget says so; coalesces with one already running. */
  schedule(key: string): void;
  /** Compresses `key` now; resolves to the number of turns folded, rejects if the summariser fails. */
  compress(key: string): Promise<number>;
  /**
   * Resolves once no compression is in flight. Past `graceMs` the ones still running are cancelled (their
   * turns stay verbatim and are folded later), so a hung model cannot hold a shutdown for minutes.
   */
  idle(graceMs?: number): Promise<void>;
}

/** What compression needs: where memory lives, who summarises, and the budget that triggers it. */
export interface CompressorDeps {
  store: ConversationStore;
  summarizer: Summarizer;
  budget: MemoryBudget;
  logger?: Logger | undefined;
  /** Told what each summary call spent, and for which key (usage is billed to the channel). */
  onSummaryUsage?: ((key: string, usage: TokenUsage) => void) | undefined;
}

/**
 * Creates the compressor. A compression reads a snapshot, summarises its oldest turns, then replaces exactly
 * those turns by the summary in one transaction, and only if nothing reset or compacted the key meanwhile.
 * A failure or a crash at any point leaves the raw turns in place; the next recorded turn retries.
 */
export function createCompressor(deps: CompressorDeps): Compressor {
  const running = new Map<string, Promise<void>>();
  const again = new Set<string>();
  const cancel = new AbortController();

  async function compress(key: string): Promise<number> {
    let folded = 0;
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const snapshot = await deps.store.load(key);
      const count = turnsToFold(
        snapshot.turns.map((t) => t.tokens),
        deps.budget,
      );
      if (count === 0) break;
      const old = snapshot.turns.slice(0, count);
      const attributes = { 'thinkthread.channel': channelHash(key), 'thinkthread.folded_turns': count };
      const applied = await inSpan('thinkthread.memory.compact', { attributes }, async () => {
        const text = await deps.summarizer.summarize(
          { previous: snapshot.summary?.text, turns: old },
          cancel.signal,
          (usage) => deps.onSummaryUsage?.(key, usage),
        );
        return deps.store.compact(key, {
          throughId: old[count - 1]!.id,
          foldedTurns: count,
          expectedVersion: snapshot.version,
          summary: { text, tokens: summaryTokens(text) },
        });
      });
      if (applied) folded += count;
      deps.logger?.debug({ key, folded: count, applied }, 'memory compression round');
    }
    return folded;
  }

  async function drain(key: string): Promise<void> {
    do {
      again.delete(key);
      try {
        await compress(key);
      } catch (err) {
        deps.logger?.warn(
          { key, err },
          'memory compression failed; the turns stay verbatim and it is retried later',
        );
        return;
      }
    } while (again.has(key));
  }

  return {
    schedule(key) {
      if (running.has(key)) {
        again.add(key);
        return;
      }
      const job = drain(key).finally(() => running.delete(key));
      running.set(key, job);
    },
    compress,
    async idle(graceMs = COMPRESSION_GRACE_MS) {
      const settled = async () => {
        while (running.size > 0) await Promise.all(running.values());
      };
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), graceMs);
      });
      const outcome = await Promise.race([settled(), late]);
      clearTimeout(timer);
      if (outcome === 'late') {
        deps.logger?.warn(
          { keys: [...running.keys()] },
          'memory compression still running at shutdown; cancelled',
        );
        cancel.abort();
        await settled();
      }
    },
  };
}
