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

async function contractHarness(mode: SlackMode) {
  const h: SlackHarness = await startSlackHarness(mode);
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
      await ask(h, mention(text, { channel }));
      const answers = topLevel(h, channel).slice(before);
      const steps = answers[0] ? replies(h, channel, answers[0].ts) : [];
      return { answer: seen(answers), steps: seen(steps) };
    },
    reset: (conversation?: string) => ephemeral('/reset', conversation),
    memory: (conversation?: string) => ephemeral('/memory', conversation),
    close: () => h.close(),
  };
}

adapterContract('slack (http)', () => contractHarness('http'));
adapterContract('slack (socket mode)', () => contractHarness('socket'));
