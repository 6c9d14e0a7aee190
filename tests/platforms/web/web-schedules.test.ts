import { afterEach, describe, expect, it } from 'vitest';
import { startWebBed, type WebBed, WebUser } from './web-harness.js';

describe('web chat: /schedule', () => {
  let bed: WebBed | undefined;
  let user: WebUser | undefined;
  afterEach(async () => {
    user?.close();
    await bed?.close();
    bed = undefined;
  });

  it('lists and cancels through the assistant, and says plainly that runs cannot be delivered in the web chat', async () => {
    bed = await startWebBed({}, {}, { schedules: true });
    bed.test.core.schedules!.start({});
    user = new WebUser(bed.url);
    expect(await user.command('/schedule')).toMatch(/^No scheduled questions here or of yours/);
    expect(await user.command('/schedule add "in 1 hour" water the plants')).toBe(
      'Scheduled questions cannot be delivered here yet; try in Discord or Slack.',
    );
    expect(await user.command('/schedule cancel nosuchid')).toBe(
      'There is no schedule "nosuchid"; /schedule list shows their ids.',
    );
    expect(await user.command('/schedule frobnicate')).toMatch(/^Usage: \/schedule list/);
    expect(await user.command('/help')).toContain('/schedule list|cancel <id>');
  });
});
