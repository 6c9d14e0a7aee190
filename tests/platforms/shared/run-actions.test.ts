import { describe, expect, it } from 'vitest';
import { parseRunActionId, runActionId } from '../../../src/platforms/shared/run-actions.js';

describe('run action ids', () => {
  it('round-trips the action and a run id that itself holds colons', () => {
    const id = runActionId('feedback_down', 'slack:T1:C1:1700000000.0001');
    expect(parseRunActionId(id)).toEqual({ action: 'feedback_down', runId: 'slack:T1:C1:1700000000.0001' });
  });

  it('stays within the 100 characters Discord allows for a custom_id', () => {
    expect(runActionId('stop', 'x'.repeat(300)).length).toBeLessThanOrEqual(100);
  });

  it('ignores ids that are not ours', () => {
    expect(parseRunActionId('other:stop:1')).toBeNull();
    expect(parseRunActionId('tt:launch:1')).toBeNull();
    expect(parseRunActionId('tt:stop:')).toBeNull();
    expect(parseRunActionId('tt:stop')).toBeNull();
  });
});
