import type { Approver } from '../../core/approvals/approvals.js';
import type { Assistant } from '../../core/assistant.js';
import { argumentsText } from '../shared/format-approvals.js';
import type { RunRenderer } from '../shared/run-renderer.js';
import type { PendingApproval, RunView } from '../shared/run-view.js';
import type { LineFeed } from './line-feed.js';
import { terminalSafe } from './terminal-text.js';

/** What the terminal chat's approval prompts need. */
export interface ConsoleApprovalsOptions {
  assistant: Assistant;
  feed: LineFeed;
  write(text: string): void;
  /** The person at the terminal. */
  who: Approver;
  /** Aborted when the chat stops: input ending then is the bot stopping, not a "no" (the call is kept). */
  stopping?: AbortSignal | undefined;
}

/** The question under a pending call; the next line answers it. */
export function approvalPrompt(approval: PendingApproval): string {
  const args = argumentsText(approval.input);
  return `Approve ${approval.tool} with ${terminalSafe(args)}? [y = yes, n = no, n <reason> = no, saying why] `;
}

/**
 * The renderer, with a `y/n` prompt for each call that waits for approval, asked one at a time; the next
 * input line answers it (piped input too). A prompt whose call was decided meanwhile (it timed out) or whose
 * run ended is dropped without taking a line.
 */
export function withApprovalPrompts(renderer: RunRenderer, options: ConsoleApprovalsOptions): RunRenderer {
  const { assistant, write } = options;
  const asked = new Set<string>();
  const open = new Map<string, AbortController>();
  let queue = Promise.resolve();
  /** The call whose prompt is on the screen, waiting for a line. */
  let showing: string | undefined;

  const ask = async (approval: PendingApproval) => {
    const settled = open.get(approval.id);
    if (!settled || settled.signal.aborted || !assistant.decideApproval) return;
    write(approvalPrompt(approval));
    showing = approval.id;
    const verdict = await readVerdict(options, settled.signal);
    if (!verdict && (settled.signal.aborted || options.stopping?.aborted)) return;
    showing = undefined;
    if (!verdict) write('\n');
    await decide(approval, verdict ?? { approve: false, reason: 'no answer: the input ended' });
  };

  const decide = async (
    approval: PendingApproval,
    verdict: Parameters<NonNullable<Assistant['decideApproval']>>[2],
  ) => {
    open.delete(approval.id);
    try {
      const press = await assistant.decideApproval!(approval.id, options.who, verdict);
      if (press.status === 'forbidden' || press.status === 'expired') write(`${press.message}\n`);
    } catch {
      write('Error: could not record the decision; try again.\n');
    }
  };

  const forget = (view: RunView) => {
    const waiting = new Set((view.approvals ?? []).map((a) => a.id));
    for (const [id, controller] of open) {
      if (!waiting.has(id)) {
        // Decided elsewhere (it timed out, the run ended): the prompt's line is ended before what follows.
        if (showing === id) {
          showing = undefined;
          write('\n');
        }
        controller.abort();
        open.delete(id);
      }
    }
  };

  return {
    render(view) {
      forget(view);
      renderer.render(view);
      for (const approval of view.approvals ?? []) {
        if (asked.has(approval.id)) continue;
        asked.add(approval.id);
        open.set(approval.id, new AbortController());
        queue = queue.then(() => ask(approval));
      }
    },
    async finish(view) {
      forget({ ...view, approvals: [] });
      await queue;
      await renderer.finish(view);
    },
  };
}

type Verdict = Parameters<NonNullable<Assistant['decideApproval']>>[2];

const ASK_AGAIN = 'Please answer y or n (n <reason> to say why): ';

/** The next typed answer to a prompt, asking again after anything else; undefined when no line comes. */
async function readVerdict(
  options: Pick<ConsoleApprovalsOptions, 'feed' | 'write'>,
  signal: AbortSignal,
): Promise<Verdict | undefined> {
  for (;;) {
    const line = await options.feed.answer(signal);
    if (line === undefined) return undefined;
    const verdict = verdictOf(line);
    if (verdict) return verdict;
    options.write(ASK_AGAIN);
  }
}

/** A typed answer to a prompt: `y`, `n`, or `n <reason>`; undefined for anything else. */
function verdictOf(line: string): Verdict | undefined {
  const answer = /^\s*(y|yes|n|no)\b\s*([\s\S]*)$/i.exec(line);
  if (!answer) return undefined;
  return answer[1]!.toLowerCase().startsWith('y')
    ? { approve: true }
    : { approve: false, reason: answer[2]?.trim() || undefined };
}

/**
 * Asks again about calls kept from a process that stopped while they waited (the terminal's prompt ended
 * with it): one `y/n` each, before any other line; an answer goes on with the run, which then shows here.
 */
export async function askKeptApprovals(
  kept: readonly PendingApproval[],
  options: ConsoleApprovalsOptions,
  signal: AbortSignal,
): Promise<void> {
  const { assistant, write } = options;
  if (!assistant.decideApproval) return;
  for (const approval of kept) {
    write(`A tool call was waiting for approval when the bot stopped.\n${approvalPrompt(approval)}`);
    const verdict = await readVerdict(options, signal);
    if (!verdict) return void write('\n');
    try {
      const press = await assistant.decideApproval(approval.id, options.who, verdict);
      write(
        `${'message' in press ? press.message : (press.elsewhere?.note ?? `${approval.tool} ${press.status}.`)}\n`,
      );
    } catch {
      write('Error: could not record the decision; try again.\n');
    }
  }
}
