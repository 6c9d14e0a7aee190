import type { webApi } from '@slack/bolt';
import type { Logger } from '../../core/logger.js';
import type { RunRenderer } from '../shared/run-renderer.js';
import type { PendingApproval, RunView } from '../shared/run-view.js';
import { approvalBlocks, approvalText, decidedBlocks } from './approval-blocks.js';

/** Where a run's approval messages go: the thread its steps are in. */
export interface SlackApprovalPlace {
  client: webApi.WebClient;
  channel: string;
  /** The thread: known at once (a question's thread), or once the answer is posted (its replies). */
  threadTs: () => Promise<string | undefined>;
  logger: Logger;
}

/**
 * The renderer, plus a message with Approve / Deny in the run's thread for each call that waits for a
 * person, in either layout; once decided (or the run ended) it is edited to say how, without buttons.
 */
export function withSlackApprovals<R extends RunRenderer>(renderer: R, place: SlackApprovalPlace): R {
  const { client, channel, logger } = place;
  const shown = new Map<string, { approval: PendingApproval; ts: Promise<string | undefined> }>();
  const closed = new Set<string>();
  const updates: Promise<void>[] = [];

  const post = async (approval: PendingApproval) => {
    try {
      const threadTs = await place.threadTs();
      const res = await client.chat.postMessage({
        channel,
        ...(threadTs ? { thread_ts: threadTs } : {}),
        text: approvalText(approval),
        blocks: approvalBlocks(approval),
        unfurl_links: false,
        unfurl_media: false,
      });
      return res.ts;
    } catch (err) {
      logger.warn({ err, channel }, 'could not show a pending approval');
      return undefined;
    }
  };

  const close = (id: string, view: RunView) => {
    const entry = shown.get(id);
    if (!entry || closed.has(id)) return;
    closed.add(id);
    // Kept through a shutdown: its buttons still decide it after the restart.
    if (view.keptApprovals?.some((a) => a.id === id)) return;
    const { tool } = entry.approval;
    const note = [...view.steps].reverse().find((s) => s.kind === 'note' && s.text.startsWith(`${tool} `));
    const ending = note?.kind === 'note' ? note.text : 'The answer ended before anyone decided.';
    updates.push(
      entry.ts.then(async (ts) => {
        if (!ts) return;
        await client.chat
          .update({ channel, ts, text: ending, blocks: decidedBlocks(entry.approval, ending) })
          .catch((err: unknown) => logger.warn({ err, channel }, 'could not close a pending approval'));
      }),
    );
  };

  const show = (view: RunView) => {
    const waiting = view.approvals ?? [];
    for (const approval of waiting) {
      if (!shown.has(approval.id)) shown.set(approval.id, { approval, ts: post(approval) });
    }
    for (const id of shown.keys()) if (!waiting.some((a) => a.id === id)) close(id, view);
  };

  return {
    ...renderer,
    render(view) {
      renderer.render(view);
      show(view);
    },
    async finish(view) {
      for (const id of shown.keys()) close(id, view);
      await Promise.all([renderer.finish(view), ...updates]);
    },
  };
}
