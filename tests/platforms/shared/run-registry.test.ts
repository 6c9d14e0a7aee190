import { describe, expect, it } from 'vitest';
import { runActionId } from '../../../src/platforms/shared/run-actions.js';
import { createRunRegistry, type Stopper } from '../../../src/platforms/shared/run-registry.js';
import { createRunView, markStopped, outcomeText } from '../../../src/platforms/shared/run-view.js';
import { WORDING } from '../../../src/platforms/shared/wording.js';

const who = (userId: string, admin = false): Stopper => ({ userId, name: userId, admin: () => admin });

describe('run registry', () => {
  it('gives each run a short id that fits every button id', () => {
    const runs = createRunRegistry();
    const ids = new Set(Array.from({ length: 200 }, () => runs.start('u1', new AbortController().signal).id));
    expect(ids.size).toBe(200);
    for (const id of ids) expect(runActionId('feedback_down', id).length).toBeLessThanOrEqual(40);
  });

  it('lets the asker and admins stop a run, once; others and ended runs are refused', async () => {
    const runs = createRunRegistry();
    const run = runs.start('asker', new AbortController().signal);
    expect(await runs.stop(run.id, who('someone'))).toBe('forbidden');
    expect(run.signal.aborted).toBe(false);
    expect(await runs.stop(run.id, who('admin', true))).toBe('stopped');
    expect(run.signal.aborted).toBe(true);
    expect(run.stoppedBy()).toBe('admin');
    expect(await runs.stop(run.id, who('asker'))).toBe('finished');

    const other = runs.start('asker', new AbortController().signal);
    other.end();
    expect(await runs.stop(other.id, who('asker'))).toBe('finished');
    expect(await runs.stop('unknown', who('asker'))).toBe('finished');
  });

  it('cancels a run on shutdown too, without anyone having stopped it', () => {
    const shutdown = new AbortController();
    const run = createRunRegistry().start('asker', shutdown.signal);
    shutdown.abort();
    expect(run.signal.aborted).toBe(true);
    expect(run.stoppedBy()).toBeUndefined();
  });
});

describe('a stopped run view', () => {
  it('keeps what was written, marked stopped, and notes who stopped it in the steps', () => {
    const view = createRunView();
    view.answer = 'Half an answer';
    markStopped(view, 'Alice');
    expect(outcomeText(view)).toEqual({ kind: 'answer', text: `Half an answer\n\n${WORDING.stopped}` });
    expect(view.steps.at(-1)).toEqual({ kind: 'note', text: 'Stopped by Alice.' });
    const empty = createRunView();
    markStopped(empty, 'Bob');
    expect(outcomeText(empty)).toEqual({ kind: 'answer', text: WORDING.stopped });
  });
});
