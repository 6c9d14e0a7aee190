import { type AdapterHarness, adapterContract } from '../../contract/adapter-contract.js';
import { signInOverHttp, startSlackSignInBed } from './sign-in-harness.js';
import { stepsText, WebUser } from './web-harness.js';

/**
 * Drives the real web adapter over HTTP as browsers would, one browser (cookie jar) per conversation, each
 * signed in with Slack (against the fake OpenID provider) as the same person: a signed-in web user is a
 * Slack principal, so the allow lists apply to them as they do in Slack.
 */
async function webHarness(env: Record<string, string> = {}): Promise<AdapterHarness> {
  const signIn = await startSlackSignInBed(env);
  const users = new Map<string, Promise<WebUser>>();
  const user = (conversation: string) => {
    let found = users.get(conversation);
    if (!found) {
      found = (async () => {
        const u = new WebUser(signIn.bed.url);
        await signInOverHttp(u.client);
        return u;
      })();
      users.set(conversation, found);
    }
    return found;
  };
  return {
    model: signIn.bed.test.fake,
    async ask(text, conversation = 'a') {
      const run = await (await user(conversation)).ask(text);
      const answer = run.problem ?? [run.answer, run.note].filter(Boolean).join('\n');
      return { answer, steps: stepsText(run) };
    },
    reset: async (conversation = 'a') => (await user(conversation)).command('/reset'),
    memory: async (conversation = 'a') => (await user(conversation)).command('/memory'),
    usage: async (conversation = 'a') => (await user(conversation)).command('/usage'),
    tools: async (conversation = 'a') => (await user(conversation)).command('/tools'),
    async close() {
      for (const u of users.values()) (await u).close();
      await signIn.close();
    },
  };
}

adapterContract('web', webHarness, { limitable: true });
