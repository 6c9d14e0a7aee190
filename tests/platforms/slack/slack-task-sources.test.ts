import { afterEach, describe, expect, it } from 'vitest';
import { taskBlocks } from '../../../src/platforms/slack/task-chunks.js';
import { SOURCES_MAX, sourcesOf } from '../../../src/platforms/slack/task-sources.js';
import { startTavilyFake } from '../../fakes/tavily.js';
import type { HttpFake } from '../../helpers/http-fake.js';
import { ask, CHANNEL, mention, replies, type SlackHarness, startSlackHarness } from './slack-harness.js';

const KEY = 'tvly-test-key';
const RESULTS = [
  {
    title: 'Eiffel Tower - Official site',
    url: 'https://www.toureiffel.paris/en',
    content: '330 metres tall.',
  },
  { title: '', url: 'https://example.org/towers/eiffel?lang=en', content: 'A wrought-iron lattice tower.' },
];

describe('task card sources', () => {
  it('names each address a result lists by its numbered title, its heading, or its host and path', () => {
    const search = [
      '1. Eiffel Tower - Official site',
      '   330 metres tall.',
      '   https://www.toureiffel.paris/en',
      '2. https://example.org/towers/eiffel',
      '   (no snippet)',
      '   https://example.org/towers/eiffel.',
    ].join('\n');
    expect(sourcesOf(search)).toEqual([
      { type: 'url', url: 'https://www.toureiffel.paris/en', text: 'Eiffel Tower - Official site' },
      { type: 'url', url: 'https://example.org/towers/eiffel', text: 'example.org/towers/eiffel' },
    ]);
    const article =
      'Eiffel Tower (Tower in Paris, France)\nThe Eiffel Tower is…\nhttps://en.wikipedia.org/wiki/Eiffel_Tower';
    expect(sourcesOf(article)).toEqual([
      {
        type: 'url',
        url: 'https://en.wikipedia.org/wiki/Eiffel_Tower',
        text: 'Eiffel Tower (Tower in Paris, France)',
      },
    ]);
    expect(sourcesOf('No web results for "x". ftp://files.example.org and javascript:alert(1)')).toEqual([]);
    const many = Array.from({ length: 9 }, (_, i) => `${i + 1}. Page ${i}\n   https://example.org/${i}`).join(
      '\n',
    );
    expect(sourcesOf(many)).toHaveLength(SOURCES_MAX);
  });

  it('keeps the sources on the static cards of a rewritten message', () => {
    const sources = [{ type: 'url' as const, url: 'https://example.org/', text: 'Example' }];
    const [card] = taskBlocks(
      [{ type: 'task_update', id: 't1', title: 'Action: web_search', status: 'complete', sources }],
      'timeline',
    );
    expect(card).toMatchObject({ type: 'task_card', sources });
  });

  describe('on Slack', () => {
    let h: SlackHarness | undefined;
    let tavily: HttpFake | undefined;
    afterEach(async () => {
      await h?.close();
      await tavily?.close();
      h = undefined;
    });

    it('a web search card lists the results it found as its sources', async () => {
      tavily = await startTavilyFake(KEY, RESULTS);
      h = await startSlackHarness('http', { env: { TAVILY_API_KEY: KEY, TAVILY_API_URL: tavily.url } });
      h.model.script(
        { toolCalls: [{ name: 'web_search', arguments: { query: 'eiffel tower height' } }] },
        { content: 'It is 330 metres tall.' },
      );
      const question = mention('how tall is the Eiffel tower?');
      await ask(h, question);
      const [answer] = replies(h, CHANNEL, question.ts);
      const search = answer!.stream!.tasks.find((t) => t.title === 'Action: web_search');
      expect(search).toMatchObject({ title: 'Action: web_search', status: 'complete' });
      expect(search!.sources).toEqual([
        { type: 'url', url: 'https://www.toureiffel.paris/en', text: 'Eiffel Tower - Official site' },
        {
          type: 'url',
          url: 'https://example.org/towers/eiffel?lang=en',
          text: 'example.org/towers/eiffel?lang=en',
        },
      ]);
      expect(h.slack.calls.filter((c) => c.method.endsWith('Stream') && !c.reply.ok)).toEqual([]);
    });
  });
});
