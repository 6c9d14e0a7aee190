import type { Logger } from '../../core/logger.js';
import type { WebChatRun, WebChatStore } from '../../core/ports/web-chat-store.js';
import { cut } from '../shared/format-step.js';
import type { WebRun } from './web-run.js';

/** The answers (with their steps) kept per conversation; older ones are dropped, newest kept. */
export const MAX_STORED_RUNS = 200;
/** The steps kept per answer; the display already folds longer runs into a “more steps” line. */
export const MAX_STORED_STEPS = 60;
/** A stored step's text is cut to this (observations are already cut for display, shorter). */
export const MAX_STORED_STEP_CHARS = 2000;
/** A conversation's title: its first question, cut to this. */
export const MAX_TITLE_CHARS = 80;
/** How many conversations the sidebar lists. */
export const MAX_LISTED_CHATS = 100;

/** A title from a question (or a rename): one line, cut. */
export function chatTitle(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return cut(line, MAX_TITLE_CHARS).text || 'Untitled';
}

/**
 * A run as stored: bounded steps and text, and the calls it kept through a shutdown (their buttons must
 * come back with the conversation after the restart: a press on them goes on with the run).
 */
export function storedRun(run: WebRun): WebChatRun & Pick<WebRun, 'approvals'> {
  return {
    id: run.id,
    question: run.question,
    ...(run.files?.length ? { files: run.files } : {}),
    phase: run.phase,
    steps: run.steps.slice(0, MAX_STORED_STEPS).map((s) => ({
      kind: s.kind,
      ok: s.ok,
      text: cut(s.text, MAX_STORED_STEP_CHARS).text,
    })),
    answer: run.answer,
    ...(run.note ? { note: run.note } : {}),
    ...(run.problem ? { problem: run.problem } : {}),
    ...(run.approvals?.length ? { approvals: run.approvals } : {}),
  };
}

/** Records an ended run in its owner's conversation; a storage failure is logged, never shown as the answer's. */
export async function keepRun(
  chats: WebChatStore | undefined,
  owner: string,
  key: string,
  run: WebRun,
  logger: Logger,
): Promise<void> {
  if (!chats) return;
  try {
    await chats.saveWebChatRun(owner, key, storedRun(run), {
      title: chatTitle(run.question),
      keep: MAX_STORED_RUNS,
      at: Date.now(),
    });
  } catch (err) {
    logger.error({ err, key }, 'could not keep a web chat answer');
  }
}
