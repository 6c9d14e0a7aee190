import type { types } from '@slack/bolt';
import { cut } from '../shared/format-step.js';
import type { StepView } from '../shared/run-view.js';
import { safeMarkdown, TASK_FIELD_CHARS } from './native-markdown.js';
import { sourcesOf } from './task-sources.js';

/** A task card's state in a native stream. */
export type TaskChunk = types.TaskUpdateChunk;

/** Text for a task card field: nothing in it notifies anyone, and it fits Slack's limit. */
function field(text: string): string {
  return cut(safeMarkdown(text.trim()), TASK_FIELD_CHARS - 1).text;
}

/** `details` / `output` of a card, left out when empty (Slack refuses empty text). */
function optional(name: 'details' | 'output', text: string): Partial<TaskChunk> {
  const value = field(text);
  return value ? { [name]: value } : {};
}

/** The web addresses a successful tool result names, as the card's sources; none for a failure. */
function sources(text: string, ok: boolean): Partial<TaskChunk> {
  const found = ok ? sourcesOf(text).map((source) => ({ ...source, text: field(source.text) })) : [];
  return found.length > 0 ? { sources: found } : {};
}

/**
 * The reasoning steps of a run as task cards: a Thought is a finished card; an Action is a card in
 * progress that its Observation completes (or marks failed), with the tool's result as its output and the
 * addresses it names (web search results, articles) as its sources; a note about the run itself (e.g. who
 * stopped it) is a finished card titled with it.
 */
export function createTaskCards() {
  const cards = new Map<string, TaskChunk>();
  // Actions waiting for their observation, by step and tool, oldest first.
  const waiting = new Map<string, string[]>();
  let count = 0;

  const put = (card: TaskChunk): TaskChunk => {
    cards.set(card.id, card);
    return card;
  };

  return {
    /** The card (new or updated) a step shows as. */
    step(step: StepView): TaskChunk {
      switch (step.kind) {
        case 'thought':
          return put({
            type: 'task_update',
            id: `task-${++count}`,
            title: 'Thought',
            status: 'complete',
            ...optional('details', step.text),
          });
        case 'action': {
          const id = `task-${++count}`;
          const key = `${step.step}:${step.tool}`;
          waiting.set(key, [...(waiting.get(key) ?? []), id]);
          return put({
            type: 'task_update',
            id,
            title: field(`Action: ${step.tool}`),
            status: 'in_progress',
            ...optional(
              'details',
              typeof step.input === 'string' ? step.input : (JSON.stringify(step.input) ?? ''),
            ),
          });
        }
        case 'observation': {
          const key = `${step.step}:${step.tool}`;
          const [id, ...rest] = waiting.get(key) ?? [];
          waiting.set(key, rest);
          const output = { ...optional('output', step.text), ...sources(step.text, step.ok) };
          const status = step.ok ? 'complete' : 'error';
          const action = id ? cards.get(id) : undefined;
          if (action) return put({ ...action, status, ...output });
          return put({
            type: 'task_update',
            id: `task-${++count}`,
            title: field(`Observation: ${step.tool}`),
            status,
            ...output,
          });
        }
        case 'note':
          return put({
            type: 'task_update',
            id: `task-${++count}`,
            title: field(step.text),
            status: 'complete',
          });
      }
    },
    /**
     * The card of the action of `step` calling `tool` marked pending while it waits for a person's approval,
     * or back in progress once decided; undefined when there is no such card (or nothing changes).
     */
    awaiting(step: number, tool: string, pending: boolean): TaskChunk | undefined {
      const id = waiting.get(`${step}:${tool}`)?.[0];
      const card = id ? cards.get(id) : undefined;
      if (!card || (card.status === 'pending') === pending) return undefined;
      if (!pending && card.status !== 'pending') return undefined;
      return put({
        ...card,
        title: field(pending ? `Waiting for approval: ${tool}` : `Action: ${tool}`),
        status: pending ? 'pending' : 'in_progress',
      });
    },
    /** A card saying how many steps were not shown. */
    note(title: string): TaskChunk {
      return put({ type: 'task_update', id: `task-${++count}`, title: field(title), status: 'complete' });
    },
    /** Cards still in progress when the run ended, marked failed. */
    unfinished(): TaskChunk[] {
      return [...cards.values()]
        .filter((card) => card.status === 'in_progress' || card.status === 'pending')
        .map((card) => put({ ...card, status: 'error' }));
    },
    /** Every card in its latest state, in order. */
    all: (): TaskChunk[] => [...cards.values()],
  };
}

/** The task cards of one run. */
export type TaskCards = ReturnType<typeof createTaskCards>;

/** Most task cards shown one block each; more go into one plan block (a message holds 50 blocks). */
const CARD_BLOCKS_MAX = 40;

/**
 * The task cards as static blocks, for a message rewritten by `chat.update` (which replaces what was
 * streamed): one `task_card` each in a timeline, or one `plan` holding them all.
 */
export function taskBlocks(cards: readonly TaskChunk[], display: 'timeline' | 'plan'): types.KnownBlock[] {
  if (cards.length === 0) return [];
  const blocks = cards.map(
    (card): types.TaskCardBlock => ({
      type: 'task_card',
      task_id: card.id,
      title: card.title,
      status: card.status,
      ...(card.details ? { details: richText(card.details) } : {}),
      ...(card.output ? { output: richText(card.output) } : {}),
      ...(card.sources?.length ? { sources: card.sources } : {}),
    }),
  );
  if (display === 'timeline' && blocks.length <= CARD_BLOCKS_MAX) return blocks;
  return [{ type: 'plan', title: PLAN_TITLE, tasks: blocks }];
}

/** The title of the plan block that holds the steps of a rewritten message. */
export const PLAN_TITLE = 'Steps';

function richText(text: string): types.RichTextBlock {
  return { type: 'rich_text', elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text }] }] };
}
