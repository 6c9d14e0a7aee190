import { z } from 'zod';
import { speakerName } from '../agent/speaker.js';
import { countTokens, truncateToTokens } from '../memory/tokens.js';
import type { ArchivedTurn, ArchiveStore } from '../ports/archive-store.js';
import { defineTool, type Tool, ToolInputError } from './define-tool.js';

/** The tool's name; the agent adds prompts/recall.md to the system prompt when it is in force. */
export const RECALL_TOOL = 'recall';
/** The prompt file (without extension) saying when to recall. */
export const RECALL_PROMPT = 'recall';
/** Turns returned when the model names no limit, and the most it may ask for. */
export const DEFAULT_RECALL_LIMIT = 5;
export const MAX_RECALL_LIMIT = 20;

/** What `recall` needs: the archive and the budget of its observation. */
export interface RecallDeps {
  archive: Pick<ArchiveStore, 'searchArchive'>;
  /** RECALL_MAX_TOKENS: the observation never exceeds it. */
  maxTokens: number;
  /** The name answers are shown under; `thinkthread` by default. */
  botName?: string | undefined;
}

const DAY_MS = 86_400_000;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * `recall`: searches everything this conversation ever said (never another's), best match first, each turn
 * with its date and speaker, within RECALL_MAX_TOKENS.
 */
export function createRecallTool(deps: RecallDeps): Tool {
  const bot = deps.botName ?? 'thinkthread';
  return defineTool({
    name: RECALL_TOOL,
    // What people said earlier: quoted as recalled text, never read as the asker's words.
    quotedAs: 'recall',
    description:
      "Searches this conversation's full history, including turns long folded into the summary, for exact " +
      'words, dates, numbers, names, decisions or pasted errors. Give a few distinctive keywords; returns the ' +
      'best matching turns with their date and speaker.',
    input: z.object({
      query: z.string().max(20_000).describe('keywords, e.g. "release date decided" or "ECONNRESET Sam"'),
      from: z.string().max(40).optional().describe('only turns on or after this date, YYYY-MM-DD'),
      to: z.string().max(40).optional().describe('only turns on or before this date, YYYY-MM-DD'),
      speaker: z
        .string()
        .max(100)
        .optional()
        .describe('only turns asked by this person (part of their name)'),
      limit: z
        .number()
        .int()
        .min(1)
        .max(MAX_RECALL_LIMIT)
        .optional()
        .describe(`turns to return, default ${DEFAULT_RECALL_LIMIT}`),
    }),
    async execute(input, context) {
      if (!context.key) throw new ToolInputError('recall works only inside a conversation.');
      const from = input.from ? parseDate(input.from, 'from') : undefined;
      const to = input.to ? parseDate(input.to, 'to') : undefined;
      const hits = await deps.archive.searchArchive({
        key: context.key,
        query: input.query,
        from,
        // A bare date means the whole of that day.
        to: to === undefined ? undefined : DATE_ONLY.test(input.to!.trim()) ? to + DAY_MS : to + 1,
        speaker: input.speaker,
        limit: input.limit ?? DEFAULT_RECALL_LIMIT,
      });
      if (hits.length === 0) {
        return (
          `Nothing earlier in this conversation matches "${input.query.slice(0, 200)}". Try other keywords ` +
          '(names, numbers, rare words), or drop the date or speaker filter.'
        );
      }
      return formatHits(hits, deps.maxTokens, bot);
    },
  });
}

/** The hits as text, best first, within `maxTokens` (a long turn is cut; turns past the budget are left out). */
export function formatHits(hits: readonly ArchivedTurn[], maxTokens: number, bot = 'thinkthread'): string {
  const header = `Earlier in this conversation (best match first, dates in UTC):`;
  let used = countTokens(header);
  const parts = [header];
  let shown = 0;
  for (const hit of hits) {
    const entry = `\n\n${shown + 1}. ${formatTime(hit.createdAt)}, ${speakerName(hit.author)} asked: ${hit.question}\n${bot} answered: ${hit.answer}`;
    const left = maxTokens - used - 20;
    if (left <= 40) break;
    const tokens = countTokens(entry);
    if (tokens > left) {
      if (shown > 0 && left < 120) break;
      parts.push(`${truncateToTokens(entry, left)} […]`);
      used = maxTokens;
      shown++;
      break;
    }
    parts.push(entry);
    used += tokens;
    shown++;
  }
  if (shown < hits.length)
    parts.push(`\n\n(${hits.length - shown} more matches left out: over RECALL_MAX_TOKENS.)`);
  return parts.join('');
}

/** `2025-03-14 10:22` (UTC). */
function formatTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
}

function parseDate(text: string, field: string): number {
  const value = text.trim();
  const ms = Date.parse(DATE_ONLY.test(value) ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(ms)) throw new ToolInputError(`"${field}" is not a date: use YYYY-MM-DD.`);
  return ms;
}
