import { afterEach, describe, expect, it } from 'vitest';
import { type DiscordBed, startDiscordBed } from './harness.js';

const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');
/** A model reply calling the calculator eight times (the most one step runs). */
const eightCalls = (step: number) => ({
  content: `Round ${step}.`,
  toolCalls: Array.from({ length: 8 }, (_, i) => ({
    name: 'calculator',
    arguments: { expression: `${step} + ${i}` },
  })),
});

describe('Discord: one answer never becomes thousands of messages', () => {
  let bed: DiscordBed | undefined;
  afterEach(async () => {
    await bed?.close();
  });

  it('cuts an answer to ANSWER_MAX_MESSAGES messages, the last saying how much is shown', async () => {
    bed = await startDiscordBed({ ANSWER_MAX_MESSAGES: '2' });
    const answer = words(3000); // 25,889 characters: 14 messages uncut
    bed.model.script({ content: answer });
    const question = await bed.say('say a lot');
    const reply = bed.replyTo(question);
    const sent = bed.discord
      .messages(bed.discord.channelId)
      .filter((m) => m.author.id === bed!.discord.bot.id && m.id >= reply.id);
    expect(sent).toHaveLength(2);
    for (const part of sent) expect(part.content.length).toBeLessThanOrEqual(2000);
    expect(sent[1]!.content).toMatch(
      /\n\(cut: the answer is 25,889 characters; the first 3,\d{3} are shown\)$/,
    );
    expect(sent[0]!.content.startsWith('word0 word1')).toBe(true);
  });

  it('shows at most 50 steps in the thread, and how many more there were', async () => {
    bed = await startDiscordBed();
    bed.model.script(eightCalls(1), eightCalls(2), eightCalls(3), eightCalls(4), { content: 'Done.' });
    const question = await bed.say('calculate a lot');
    const reply = bed.replyTo(question);
    expect(reply.content).toBe('Done.');
    const thread = bed.discord
      .messages(reply.id)
      .map((m) => m.content)
      .join('\n');
    // 4 thoughts, 32 actions and 32 observations: 68 steps, 50 shown.
    const shown = (thread.match(/\*\*(Thought|Action|Observation)/g) ?? []).length;
    expect(shown).toBe(50);
    expect(thread).toContain('… 18 more steps not shown');
  });
});
