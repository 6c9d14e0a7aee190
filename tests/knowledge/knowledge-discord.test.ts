import { afterEach, describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../fakes/openai-server.js';
import { makeDocx } from '../helpers/documents.js';
import { type DiscordBed, startDiscordBed } from '../platforms/discord/harness.js';

/** What the tool told the model in a request (its last tool message). */
const observation = (request: RecordedRequest) =>
  String(request.body.messages.filter((m) => m.role === 'tool').at(-1)?.content ?? '');

describe('Discord: files shared in a channel', () => {
  let bed: DiscordBed;
  afterEach(async () => {
    await bed?.close();
  });

  it('a Word file shared in a channel is searched there only; /knowledge lists and forgets it', async () => {
    bed = await startDiscordBed();
    const docx = Buffer.from(await makeDocx([{ heading: 'Budget', text: 'Laptops cost 1200 EUR each.' }]));
    bed.model.script({ content: 'Noted.' });
    await bed.say('here is the budget', {
      attachments: [{ filename: 'budget.docx', contentType: 'application/octet-stream', content: docx }],
    });
    const search = {
      content: 'Looking.',
      toolCalls: [{ name: 'search_knowledge', arguments: { query: 'laptops cost' } }],
    };
    bed.model.script(search, { content: '1200 EUR.' });
    await bed.say('how much are laptops?');
    expect(observation(bed.model.requests.at(-1)!)).toContain(
      'Source: budget.docx § Budget (shared in this channel)\nLaptops cost 1200 EUR each.',
    );
    const other = bed.discord.addChannel('other');
    bed.model.script(search, { content: 'I do not know.' });
    await bed.say('how much are laptops?', { channelId: other });
    expect(observation(bed.model.requests.at(-1)!)).not.toContain('1200');

    const listed = await bed.command('knowledge', { values: { action: 'list' } });
    expect(bed.discord.original(listed)?.content).toContain('budget.docx: 1 passage, shared by you on');
    const forgot = await bed.command('knowledge', { values: { action: 'forget', file: 'budget.docx' } });
    expect(bed.discord.original(forgot)?.content).toBe('Forgot budget.docx and its 1 passage.');
  });
});
