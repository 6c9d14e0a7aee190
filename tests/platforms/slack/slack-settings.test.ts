import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WORDING } from '../../../src/platforms/shared/wording.js';
import { userTs, visibleText } from '../../fakes/slack-server.js';
import {
  ADMIN,
  ALICE,
  ask,
  CHANNEL,
  mention,
  replies,
  type SlackHarness,
  startSlackHarness,
  topLevel,
} from './slack-harness.js';

const CALCULATOR_RUN = [
  {
    content: 'I will use the calculator.',
    toolCalls: [{ name: 'calculator', arguments: { expression: '6 * 7' } }],
  },
  { content: 'It is 42.' },
];

describe('Slack: /settings', () => {
  let h: SlackHarness;
  beforeEach(async () => {
    // The edit layout, whose steps go in a thread or inline; native task cards are in slack-native.test.ts.
    h = await startSlackHarness('http', { env: { LLM_MODELS: 'big-model', SLACK_STREAMING: 'edit' } });
  });
  afterEach(async () => {
    await h.close();
  });

  /** Runs `/settings <text>` as `user` (a workspace admin by default) and returns the private reply. */
  const settings = async (text: string, user = ADMIN, channel = CHANNEL) => {
    const before = h.slack.responses.length;
    const delivered = await h.command('/settings', text, { user, channel });
    expect(delivered.status).toBe(200);
    await h.slack.waitFor(() => h.slack.responses.length > before);
    const reply = h.slack.responses.at(-1)!.body as { response_type: string; text: string };
    expect(reply.response_type).toBe('ephemeral');
    return reply.text;
  };

  it('refuses someone who is not a workspace admin, and saves nothing', async () => {
    expect(await settings('prompt Answer in French.', ALICE)).toBe(WORDING.settingsAdminsOnly);
    expect(await settings('show')).toContain('Prompt (default): none');
  });

  it('gives a channel its own prompt and model, which its threads inherit and other channels do not', async () => {
    expect(await settings('prompt Always answer in French.')).toContain('Prompt: Always answer in French.');
    expect(await settings('model big-model')).toContain('Model: big-model');
    h.model.script({ content: 'Bonjour.' }, { content: 'Salut.' }, { content: 'Hello.' });
    await ask(h, mention('hello'));
    await ask(h, mention('hello in a thread', { threadTs: userTs() }));
    await ask(h, mention('hello elsewhere', { channel: 'C0002' }));

    const [channel, thread, other] = h.model.requests;
    for (const request of [channel!, thread!]) {
      expect(request.body.model).toBe('big-model');
      expect(request.body.messages[1]).toMatchObject({
        role: 'system',
        content: expect.stringContaining('Always answer in French.'),
      });
    }
    expect(other!.body.model).toBe('gpt-4o-mini');
    expect(JSON.stringify(other!.body.messages)).not.toContain('French');
  });

  it('answers a wrong subcommand or value with what is valid, saving nothing', async () => {
    expect(await settings('colour blue')).toContain('Usage: /settings show | reset');
    expect(await settings('model gpt-9')).toContain('Valid models: gpt-4o-mini, big-model');
    expect(await settings('steps sideways')).toContain('Valid: thread, inline, off');
    expect(await settings('tools calculator, teleport')).toContain('Unknown: teleport');
    const shown = await settings('show');
    for (const name of ['Prompt', 'Model', 'Protocol', 'Tools', 'Steps']) {
      expect(shown).toContain(`${name} (default)`);
    }
  });

  it('hides the steps with `steps off`, and lists only the tools in force', async () => {
    await settings('steps off');
    await settings('tools calculator');
    h.model.script(...CALCULATOR_RUN);
    await ask(h, mention('what is 6 * 7?'));
    const [answer] = topLevel(h);
    expect(visibleText(answer!)).toBe('It is 42.');
    expect(replies(h, CHANNEL, answer!.ts)).toEqual([]);
    expect(h.model.requests[0]!.body.tools?.map((t) => t.function.name)).toEqual(['calculator']);

    await h.command('/tools', '');
    await h.settle();
    const tools = (h.slack.responses.at(-1)!.body as { text: string }).text;
    expect(tools).toContain('Built-in: calculator');
    expect(tools).not.toContain('weather');

    await h.command('/memory', '');
    await h.settle();
    const memory = (h.slack.responses.at(-1)!.body as { text: string }).text;
    expect(memory).toContain('Steps: off');
    expect(memory).toContain('Tools: calculator');
  });

  it('forgets every setting with reset', async () => {
    await settings('steps inline');
    expect(await settings('reset')).toContain('back to the defaults');
    expect(await settings('show')).toContain('Steps (default): thread');
  });
});
