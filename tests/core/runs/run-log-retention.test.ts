import { afterEach, describe, expect, it } from 'vitest';
import { startRunLogRetention } from '../../../src/core/runs/run-log-retention.js';
import { waitUntil } from '../../helpers/wait-until.js';

const NOW = Date.UTC(2026, 11, 3, 9);
const DAY = 86_400_000;

describe('run log retention', () => {
  let stop: (() => void) | undefined;
  afterEach(() => stop?.());

  /** Starts retention over a store that notes every cut-off it is asked to prune before. */
  const start = (days: number) => {
    const cutoffs: number[] = [];
    stop = startRunLogRetention({
      store: {
        async pruneRunLogs(before) {
          cutoffs.push(before);
          return 0;
        },
      },
      days,
      now: () => NOW,
    });
    return cutoffs;
  };

  it('drops the logs older than RUN_LOG_RETENTION_DAYS at start', async () => {
    const cutoffs = start(14);
    await waitUntil(() => cutoffs.length === 1, { what: 'the first prune' });
    expect(cutoffs).toEqual([NOW - 14 * DAY]);
  });

  it('with 0 keeps none: every log left from before is dropped', async () => {
    const cutoffs = start(0);
    await waitUntil(() => cutoffs.length === 1, { what: 'the first prune' });
    expect(cutoffs).toEqual([NOW]);
  });
});
