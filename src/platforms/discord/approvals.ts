import type { PendingApproval, RunView } from '../shared/run-view.js';
import { approvalCard } from './approval-card.js';
import { approvalMessage, approvalRow, argumentsCut } from './approval-message.js';
import type { Poster } from './steps-card.js';

/** What the approval messages of one run need. */
export interface DiscordApprovalsOptions {
  /** Where a prompt goes (where the steps are, after those before it). */
  place: () => Promise<Poster>;
  /** DISCORD_COMPONENTS_V2: a prompt is a components v2 card where the place can take one. */
  componentsV2?: boolean | undefined;
  onError: (err: unknown) => void;
}

/** Closes a shown prompt: its ending in, its buttons gone. */
type Close = (ending: string) => Promise<void>;

/**
 * Posts a message with Approve / Deny for each call of a run that waits for a person, and once it is
 * decided (or the run ends) edits it to say how it ended, without buttons: a components v2 card with
 * DISCORD_COMPONENTS_V2 where the place takes one (the edit keeps it a card), else a classic message.
 */
export function createDiscordApprovals(options: DiscordApprovalsOptions) {
  const shown = new Map<string, { tool: string; close: Promise<Close | undefined> }>();
  const closed = new Set<string>();
  const updates: Promise<void>[] = [];

  const open = async (approval: PendingApproval): Promise<Close> => {
    const place = await options.place();
    if (options.componentsV2 && place.postCard) {
      const edit = await place.postCard(approvalCard(approval));
      return (ending) => edit(approvalCard(approval, ending));
    }
    const text = approvalMessage(approval);
    const edit = await place.post(text, [approvalRow(approval.id, argumentsCut(approval))]);
    return (ending) => edit(`${text}\n**${ending}**`, []);
  };

  const close = (id: string, view: RunView) => {
    const entry = shown.get(id);
    if (!entry || closed.has(id)) return;
    closed.add(id);
    // Kept through a shutdown: its buttons still decide it after the restart.
    if (view.keptApprovals?.some((a) => a.id === id)) return;
    const note = [...view.steps]
      .reverse()
      .find((s) => s.kind === 'note' && s.text.startsWith(`${entry.tool} `));
    const ending = note?.kind === 'note' ? note.text : 'The answer ended before anyone decided.';
    updates.push(
      entry.close.then(async (edit) => {
        try {
          await edit?.(ending);
        } catch (err) {
          options.onError(err);
        }
      }),
    );
  };

  return {
    /** Shows new pending calls and closes decided ones. */
    show(view: RunView) {
      const waiting = view.approvals ?? [];
      for (const approval of waiting) {
        if (shown.has(approval.id)) continue;
        const closer = open(approval).catch((err: unknown) => {
          options.onError(err);
          return undefined;
        });
        shown.set(approval.id, { tool: approval.tool, close: closer });
      }
      for (const id of shown.keys()) if (!waiting.some((a) => a.id === id)) close(id, view);
    },
    /** Closes what is still open as the run ends, and waits for every edit. */
    async finish(view: RunView) {
      for (const id of shown.keys()) close(id, view);
      await Promise.all(updates);
    },
  };
}
