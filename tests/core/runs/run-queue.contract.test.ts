import { createRunQueue } from '../../../src/core/runs/run-queue.js';
import { runQueueContract } from '../../contract/run-queue-contract.js';

runQueueContract('in memory', async (limits) => ({
  queue: createRunQueue(limits),
  cleanup: async () => undefined,
}));
