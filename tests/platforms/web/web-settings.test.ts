import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WORDING } from '../../../src/platforms/shared/wording.js';
import { startWebBed, type WebBed, WebUser } from './web-harness.js';

describe('web chat: /settings', () => {
  let bed: WebBed;
  const users: WebUser[] = [];
  const browser = (id: string) => {
    const user = new WebUser(bed.url, id);
    users.push(user);
    return user;
  };
  beforeEach(async () => {
    bed = await startWebBed({ ADMIN_USERS: 'webadmin' });
  });
  afterEach(async () => {
    for (const u of users.splice(0)) u.close();
    await bed.close();
  });

  it('is for admins only: a browser in ADMIN_USERS sets its chat’s prompt, others are refused', async () => {
    const someone = browser('someone');
    expect(await someone.command('/settings prompt Be rude.')).toBe(WORDING.settingsAdminsOnly);

    const admin = browser('webadmin');
    expect(await admin.command('/settings prompt Answer in one word.')).toContain(
      'Prompt: Answer in one word.',
    );
    bed.test.fake.script({ content: 'Paris.' }, { content: 'The capital is Paris.' });
    expect((await admin.ask('capital of France?')).answer).toBe('Paris.');
    await someone.ask('capital of France?');
    const [mine, theirs] = bed.test.fake.requests;
    expect(JSON.stringify(mine!.body.messages)).toContain('Answer in one word.');
    expect(JSON.stringify(theirs!.body.messages)).not.toContain('Answer in one word.');
  });
});
