import { z } from 'zod';
import { bool, int } from './fields.js';
import { settingGroup } from './setting-group.js';

/** What the bot reads besides the question: threads, replies, attached files. */
export const contextSettings = settingGroup({
  title: 'What the bot reads besides the question',
  page: 'using.md',
  shape: {
    CONTEXT_MAX_MESSAGES: z.coerce
      .number()
      .int()
      .min(0)
      .max(1000)
      .default(50)
      .describe(
        'Mentioned in a thread (or, on Discord, in a reply), the bot reads up to this many earlier messages ' +
          'that it has not seen yet; `0` turns this off.',
      ),
    CONTEXT_MAX_TOKENS: int(3000).describe('Tokens of those messages at most, keeping the newest.'),
    ATTACHMENT_MAX_BYTES: int(1_000_000).describe(
      'Bytes downloaded of one attached file at most; a longer text file is cut there.',
    ),
    DOCUMENT_MAX_BYTES: int(20_000_000).describe(
      'Bytes of one attached PDF, Word, PowerPoint or Excel file at most; a larger one is named and skipped.',
    ),
    ATTACHMENT_MAX_TOKENS: int(8000).describe(
      'Tokens of one attached text file shown to the model; the rest is cut with a visible marker.',
    ),
  },
});

/** The store, a channel's memory, and how many questions run at once. */
export const memorySettings = settingGroup({
  title: 'Memory and runs',
  page: 'memory.md',
  shape: {
    DATABASE_URL: z
      .string()
      .default('sqlite:./data/thinkthread.db')
      .describe(
        'Where memory, usage and settings live: `sqlite:./relative/path` or `sqlite:/absolute/path`, or ' +
          '`postgres://user:password@host:5432/database` (`?sslmode=require` for TLS, `?schema=name` for a ' +
          'schema other than `public`; see docs/storage.md).',
      ),
    DATABASE_POOL_SIZE: int(10).describe('Connections to Postgres at most, per process (SQLite ignores it).'),
    MEMORY_MAX_TOKENS: int(2000).describe(
      "Token budget of a channel's verbatim turns; past it, the oldest are folded into a summary.",
    ),
    MEMORY_KEEP_TURNS: int(4, 0).describe('Turns always kept verbatim.'),
    MEMORY_SUMMARY_MAX_TOKENS: int(600).describe(
      'The summary is itself re-compressed past this many tokens.',
    ),
    RECALL_MAX_TOKENS: int(1500).describe(
      "Most tokens the `recall` tool returns from a channel's archive of past turns.",
    ),
    RECALL_EMBEDDINGS: bool(true).describe(
      'With `EMBEDDINGS_MODEL` set, archived turns are embedded too (sent to the embeddings server) and ' +
        '`recall` searches by meaning as well as words; `false` keeps embeddings for documents only.',
    ),
    NOTES_MAX_TOKENS: int(500).describe(
      'Most tokens of notes (per channel and per person) in the prompt; the oldest are left out past it.',
    ),
    MEMORY_RETENTION_DAYS: int(0, 0).describe(
      'Archived turns older than this many days are dropped, daily; `0` keeps them.',
    ),
    MAX_CONCURRENT_RUNS: int(16).describe('Questions answered at once across all channels.'),
    MAX_QUEUED_PER_CHANNEL: int(5, 0).describe(
      'Questions waiting per channel before the bot answers "busy, try again shortly".',
    ),
  },
});

/** Reminders and recurring questions. */
export const scheduleSettings = settingGroup({
  title: 'Schedules (reminders and recurring questions)',
  page: 'schedules.md',
  shape: {
    SCHEDULE_ANYONE: bool(false).describe(
      '`true` lets everyone create recurring questions in a channel; otherwise admins only (one-off ' +
        'reminders: anyone).',
    ),
    SCHEDULES_PER_PERSON: int(10, 0).describe(
      "Schedules one person may have at once (a token web browser's address counts too: fresh cookies add none).",
    ),
    SCHEDULE_CATCH_UP_MS: int(3_600_000, 0).describe(
      'A run missed while every replica was down fires at start-up if it is at most this late (1 hour); ' +
        'else it is skipped.',
    ),
  },
});
