import { describe, expect, it } from 'vitest';
import { createPauser, PAUSE_EVERY_MS } from '../../../src/core/util/pauser.js';

describe('the pauser', () => {
  it('lets the event loop turn once the time since the last turn reaches PAUSE_EVERY_MS, and not before', async () => {
    let now = 0;
    const pause = createPauser(() => now);
    let turned = false;
    setImmediate(() => {
      turned = true;
    });
    now = PAUSE_EVERY_MS - 1;
    await pause();
    expect(turned).toBe(false);
    now = PAUSE_EVERY_MS;
    await pause();
    expect(turned).toBe(true);
  });
});
