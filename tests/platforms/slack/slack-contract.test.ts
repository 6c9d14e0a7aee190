import { adapterContract } from '../../contract/adapter-contract.js';
import { taskCards } from '../../fakes/slack-server.js';
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

type Streaming = 'native' | 'edit';

/** What users see of one question: in native mode, the replies in the question's thread and their task cards. */
function exchange(
  h: SlackHarness,
  streaming: Streaming,
  channel: string,
  questionTs: string,
  before: number,
) {
  if (streaming === 'native') {
    const answers = replies(h, channel, questionTs);
    return { answers, steps: answers.map(taskCards).filter(Boolean).join('\n') };
  }
  const answers = topLevel(h, channel).slice(before);
  return { answers, steps: answers[0] ? seen(replies(h, channel, answers[0].ts)) : '' };
}

async function contractHarness(mode: SlackMode, streaming: Streaming, env: Record<string, string> = {}) {
  const h: SlackHarness = await startSlackHarness(mode, { env: { SLACK_STREAMING: streaming, ...env } });
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
      const question = mention(text, { channel });
      await ask(h, question);
      const { answers, steps } = exchange(h, streaming, channel, question.ts, before);
      // What only the asker sees (a refusal) counts as the answer when nothing was posted for everyone.
      const privately = h.slack.ephemerals.slice(whispered).map((e) => String(e.text ?? ''));
      return { answer: answers.length > 0 ? seen(answers) : privately.join('\n'), steps };
    },
    reset: (conversation?: string) => ephemeral('/reset', conversation),
    memory: (conversation?: string) => ephemeral('/memory', conversation),
    usage: (conversation?: string) => ephemeral('/usage', conversation),
    tools: (conversation?: string) => ephemeral('/tools', conversation),
    close: () => h.close(),
  };
}

for (const streaming of ['native', 'edit'] as const) {
  adapterContract(`slack (http, ${streaming})`, (env) => contractHarness('http', streaming, env), {
    limitable: true,
  });
  adapterContract(`slack (socket mode, ${streaming})`, (env) => contractHarness('socket', streaming, env), {
    limitable: true,
  });
}
