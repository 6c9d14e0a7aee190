import { describe, expect, it } from 'vitest';
import { countTokens } from '../../../src/core/memory/tokens.js';
import type { ArchivedTurn, ArchiveSearch } from '../../../src/core/ports/archive-store.js';
import { createRecallTool, formatHits } from '../../../src/core/tools/recall.js';

const hit = (id: number, answer: string): ArchivedTurn => ({
  id,
  key: 'k',
  author: 'Sam',
  principal: null,
  question: `question ${id}`,
  answer,
  createdAt: Date.UTC(2025, 2, 14, 10, 22),
});

describe('recall', () => {
  it('never exceeds RECALL_MAX_TOKENS, cutting a long turn and leaving later ones out', () => {
    const hits = [hit(1, 'word '.repeat(3000)), hit(2, 'short')];
    for (const max of [200, 600, 1500]) {
      const text = formatHits(hits, max);
      expect(countTokens(text)).toBeLessThanOrEqual(max);
      expect(text).toContain('2025-03-14 10:22, Sam asked: question 1');
    }
    const both = formatHits([hit(1, 'a'), hit(2, 'b')], 1500);
    expect(both).toContain('1. 2025-03-14');
    expect(both).toContain('2. 2025-03-14');
  });

  it('searches only the run’s conversation, turns a bare end date into the whole day, and needs a conversation', async () => {
    const seen: ArchiveSearch[] = [];
    const tool = createRecallTool({
      archive: {
        searchArchive: async (s) => {
          seen.push(s);
          return [];
        },
      },
      maxTokens: 1500,
    });
    const signal = new AbortController().signal;
    const text = await tool.execute(
      { query: 'release', from: '2025-03-01', to: '2025-03-31', speaker: 'sam' },
      { signal, key: 'slack:T:C', principal: 'slack:T:U' },
    );
    expect(text).toMatch(/^Nothing earlier/);
    expect(seen[0]).toEqual({
      key: 'slack:T:C',
      query: 'release',
      from: Date.UTC(2025, 2, 1),
      to: Date.UTC(2025, 3, 1),
      speaker: 'sam',
      limit: 5,
    });
    await expect(tool.execute({ query: 'x' }, { signal })).rejects.toThrow(/inside a conversation/);
  });
});
