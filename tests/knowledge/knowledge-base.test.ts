import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BASE_SCOPE } from '../../src/core/ports/knowledge-store.js';
import { startFakeEmbeddings } from '../fakes/embeddings-server.js';
import { visibleText } from '../fakes/slack-server.js';
import { makeDocx, makePdf } from '../helpers/documents.js';
import {
  ask,
  CHANNEL,
  mention,
  type SlackHarness,
  startSlackHarness,
  topLevel,
} from '../platforms/slack/slack-harness.js';

const search = (query: string) => ({
  content: 'I will look it up.',
  toolCalls: [{ name: 'search_knowledge', arguments: { query } }],
});
/** What the tool told the model in the newest request (the last tool message). */
const observation = (h: SlackHarness) => {
  const messages = h.model.requests.at(-1)!.body.messages;
  return String(messages.filter((m) => m.role === 'tool').at(-1)?.content ?? '');
};

describe('knowledge: KNOWLEDGE_DIR and files shared in a channel', () => {
  let h: SlackHarness;
  let dir: string;
  afterEach(async () => {
    await h?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const start = async (env: Record<string, string> = {}) => {
    dir = mkdtempSync(join(tmpdir(), 'thinkthread-kb-'));
    mkdirSync(join(dir, 'handbook'));
    mkdirSync(join(dir, 'policies'));
    writeFileSync(
      join(dir, 'handbook/oncall.md'),
      '# On-call handbook\n\n## Rotation\n\nOn-call swaps need the manager’s approval two days ahead.\n\n## Escalation\n\nPage the lead after fifteen minutes.\n',
    );
    writeFileSync(
      join(dir, 'policies/travel.pdf'),
      await makePdf(['Travel', 'Contents', 'Hotels are paid up to 150 EUR a night.']),
    );
    writeFileSync(join(dir, '.hidden.md'), 'never indexed');
    h = await startSlackHarness('http', {
      env: {
        SLACK_STREAMING: 'edit',
        KNOWLEDGE_DIR: dir,
        KNOWLEDGE_BASE_URL: 'https://wiki.example.com/docs',
        ...env,
      },
    });
    return h;
  };

  it('answers from the handbook with the passage and its source, linked under KNOWLEDGE_BASE_URL', async () => {
    await start();
    h.model.script(search('on-call swaps'), {
      content: 'Swaps need the manager’s approval [handbook/oncall.md § Rotation].',
    });
    await ask(h, mention('what does the handbook say about on-call swaps?'));
    const seen = observation(h);
    expect(seen).toContain(
      'Source: handbook/oncall.md § Rotation <https://wiki.example.com/docs/handbook/oncall.md>\nOn-call swaps need the manager’s approval two days ahead.',
    );
    // Documents are quoted as knowledge, never as the asker's words; the prompt asks for citations.
    expect(seen).toContain('<untrusted source="knowledge"');
    expect(JSON.stringify(h.model.requests.at(-1)!.body.messages[0])).toContain('Cite each passage you use');
    expect(visibleText(topLevel(h)[0]!)).toContain('[handbook/oncall.md § Rotation]');

    h.model.script(search('hotels night'), { content: 'Up to 150 EUR.' });
    await ask(h, mention('how much for a hotel?'));
    expect(observation(h)).toContain('Source: policies/travel.pdf p. 3');
    const files = await h.core.store.knowledgeFiles(BASE_SCOPE);
    expect(files.map((f) => f.path)).toEqual(['handbook/oncall.md', 'policies/travel.pdf']);
  });

  it('with EMBEDDINGS_MODEL, finds the handbook passage asked about in other words', async () => {
    const embeddings = await startFakeEmbeddings();
    try {
      await start({ EMBEDDINGS_MODEL: 'nomic-embed-text', EMBEDDINGS_BASE_URL: embeddings.url });
      await h.core.knowledge.embedded?.embedded();
      h.model.script(search('who okays rota trades'), {
        content: 'The manager [handbook/oncall.md § Rotation].',
      });
      await ask(h, mention('who okays rota trades?'));
      expect(observation(h)).toContain(
        'Source: handbook/oncall.md § Rotation <https://wiki.example.com/docs/handbook/oncall.md>\nOn-call swaps need the manager’s approval two days ahead.',
      );
      expect(embeddings.requests.map((r) => r.model)).toContain('nomic-embed-text');
    } finally {
      await embeddings.close();
    }
  });

  it('without embeddings, a question in other words finds nothing (what EMBEDDINGS_MODEL adds)', async () => {
    await start();
    h.model.script(search('who okays rota trades'), { content: 'I could not find it.' });
    await ask(h, mention('who okays rota trades?'));
    expect(observation(h)).toContain('No passage matches');
  });

  it('re-indexes a changed, added or removed file while running', async () => {
    await start();
    writeFileSync(join(dir, 'handbook/oncall.md'), '# Rotation\n\nSwaps are free now.\n');
    writeFileSync(
      join(dir, 'policies/expenses.docx'),
      await makeDocx([{ heading: 'Meals', text: 'Dinner up to 40 EUR.' }]),
    );
    rmSync(join(dir, 'policies/travel.pdf'));
    const store = h.core.store;
    await vi.waitFor(
      async () => {
        expect((await store.knowledgeFiles(BASE_SCOPE)).map((f) => f.path)).toEqual([
          'handbook/oncall.md',
          'policies/expenses.docx',
        ]);
        expect(await store.searchKnowledge([BASE_SCOPE], 'approval', 5)).toEqual([]);
      },
      { timeout: 15_000, interval: 100 },
    );
    expect((await store.searchKnowledge([BASE_SCOPE], 'dinner', 5))[0]).toMatchObject({
      path: 'policies/expenses.docx',
      heading: 'Meals',
    });
  });

  it('a PDF shared in a channel is found there later, never in another channel; /reset forgets it', async () => {
    await start();
    const pdf = h.slack.addFile(
      'launch-plan.pdf',
      'application/pdf',
      Buffer.from(await makePdf(['The launch moves to March.'])),
    );
    h.model.script({ content: 'Noted.' });
    await ask(h, mention('here is the plan', { files: [pdf] }));

    h.model.script(search('launch month'), { content: 'March.' });
    await ask(h, mention('when is the launch?'));
    expect(observation(h)).toContain(
      'Source: launch-plan.pdf p. 1 (shared in this channel)\nThe launch moves to March.',
    );

    h.model.script(search('launch month'), { content: 'I do not know.' });
    await ask(h, mention('when is the launch?', { channel: 'C0002' }));
    expect(observation(h)).not.toContain('March');

    await h.command('/reset', '');
    await h.slack.waitFor(() => h.slack.responses.length > 0);
    expect(await h.core.store.knowledgeFiles(`slack:${h.slack.team}:${CHANNEL}`)).toEqual([]);
  });

  it('/knowledge lists the files shared here; only the sharer or an admin forgets one', async () => {
    await start();
    const doc = h.slack.addFile(
      'plan.docx',
      'application/octet-stream',
      Buffer.from(await makeDocx([{ heading: 'Dates', text: 'Launch in March.' }])),
    );
    h.model.script({ content: 'Noted.' });
    await ask(h, mention('here is the plan', { files: [doc] }));
    const reply = async (text: string, user?: string) => {
      const before = h.slack.responses.length;
      await h.command('/knowledge', text, user ? { user } : {});
      await h.slack.waitFor(() => h.slack.responses.length > before);
      return (h.slack.responses.at(-1)!.body as { text: string }).text;
    };
    const listed = await reply('list');
    expect(listed).toContain('plan.docx: 1 passage, shared by you on');
    expect(listed).toContain('The knowledge base has 2 documents.');
    h.slack.addUser('UBOB', { name: 'bob', display_name: 'Bob' });
    expect(await reply('forget plan.docx', 'UBOB')).toBe(
      'Only the person who shared that file, or an admin, can forget it.',
    );
    expect(await reply('forget plan.docx')).toBe('Forgot plan.docx and its 1 passage.');
    expect(await h.core.store.searchKnowledge([`slack:${h.slack.team}:${CHANNEL}`], 'launch', 5)).toEqual([]);
    expect(await reply('forget plan.docx')).toContain('No file named “plan.docx” is kept here');
  });

  it('refuses a KNOWLEDGE_DIR that is not a folder at start', async () => {
    dir = mkdtempSync(join(tmpdir(), 'thinkthread-kb-'));
    await expect(startSlackHarness('http', { env: { KNOWLEDGE_DIR: join(dir, 'missing') } })).rejects.toThrow(
      /KNOWLEDGE_DIR: .*missing is not a folder/,
    );
  });
});
