import { adapterContract } from '../../contract/adapter-contract.js';
import {
  ask,
  mention,
  replies,
  type SlackHarness,
  type SlackMode,
  seen,
  startSlackHarness,
  topLevel,
} from './slack-harness.js';

/** Each contract conversation name is its own channel. */
const channelOf = (conversation = 'a') => `C${conversation.toUpperCase()}0001`;

async function contractHarness(mode: SlackMode, env: Record<string, string> = {}) {
  const h: SlackHarness = await startSlackHarness(mode, { env });
  const ephemeral = async (command: string, conversation?: string) => {
    const before = h.slack.responses.length;
    await h.command(command, '', { channel: channelOf(conversation) });
    await h.settle();
    return h.slack.responses
      .slice(before)
      .map((r) => String(r.body.text ?? ''))
      .join('\n');
  };
  return {
    model: h.model,
    async ask(text: string, conversation?: string) {
      const channel = channelOf(conversation);
      const before = topLevel(h, channel).length;
      const whispered = h.slack.ephemerals.length;
      await ask(h, mention(text, { channel }));
      const answers = topLevel(h, channel).slice(before);
      const steps = answers[0] ? replies(h, channel, answers[0].ts) : [];
      // What only the asker sees (a refusal) counts as the answer when nothing was posted for everyone.
      const privately = h.slack.ephemerals.slice(whispered).map((e) => String(e.text ?? ''));
      return { answer: answers.length > 0 ? seen(answers) : privately.join('\n'), steps: seen(steps) };
    },
    reset: (conversation?: string) => ephemeral('/reset', conversation),
    memory: (conversation?: string) => ephemeral('/memory', conversation),
    usage: (conversation?: string) => ephemeral('/usage', conversation),
    tools: (conversation?: string) => ephemeral('/tools', conversation),
    close: () => h.close(),
  };
}

adapterContract('slack (http)', (env) => contractHarness('http', env), { limitable: true });
adapterContract('slack (socket mode)', (env) => contractHarness('socket', env), { limitable: true });
