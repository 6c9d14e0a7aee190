import { type AdapterHarness, adapterContract, CONSOLE_ASKER } from '../../contract/adapter-contract.js';
import { startWebBed, stepsText, WebUser } from './web-harness.js';

/**
 * Drives the real web adapter over HTTP as browsers would, one browser (cookie jar) per conversation. All
 * of them carry the browser ID the contract blocks by name, so BLOCK_USERS can be seen to apply.
 */
async function webHarness(env: Record<string, string> = {}): Promise<AdapterHarness> {
  const bed = await startWebBed(env);
  const users = new Map<string, WebUser>();
  const user = (conversation: string) => {
    let found = users.get(conversation);
    if (!found) {
      found = new WebUser(bed.url, CONSOLE_ASKER);
      users.set(conversation, found);
    }
    return found;
  };
  return {
    model: bed.test.fake,
    async ask(text, conversation = 'a') {
      const run = await user(conversation).ask(text);
      const answer = run.problem ?? [run.answer, run.note].filter(Boolean).join('\n');
      return { answer, steps: stepsText(run) };
    },
    reset: (conversation = 'a') => user(conversation).command('/reset'),
    memory: (conversation = 'a') => user(conversation).command('/memory'),
    usage: (conversation = 'a') => user(conversation).command('/usage'),
    tools: (conversation = 'a') => user(conversation).command('/tools'),
    async close() {
      for (const u of users.values()) u.close();
      await bed.close();
    },
  };
}

adapterContract('web', webHarness, { limitable: true });
