import { principalLabel } from '../../core/governance/principal.js';
import type { Provenance, UntrustedSource } from '../../core/util/untrusted.js';

const WHAT: Partial<Record<UntrustedSource, [string, string]>> = {
  thread: ['message of this thread', 'messages of this thread'],
  reply: ['message replied to', 'messages replied to'],
  forwarded: ['forwarded message', 'forwarded messages'],
  attachment: ['file', 'files'],
  note: ['note someone saved', 'notes people saved'],
  knowledge: ['document passage', 'document passages'],
  history: ['earlier message', 'earlier messages'],
  recall: ['earlier turn found by recall', 'earlier turns found by recall'],
  tool: ['tool result', 'tool results'],
};

/**
 * The reasoning thread's line saying what the bot read besides the question, by source, with who wrote
 * it (or the file's name): "Read as quoted data, not instructions: 3 messages of this thread (Sam, Ana);
 * 1 file (notes.txt)."
 */
export function readNote(sources: readonly Provenance[]): string {
  const groups = new Map<UntrustedSource, Provenance[]>();
  for (const s of sources) groups.set(s.source, [...(groups.get(s.source) ?? []), s]);
  const parts = [...groups].map(([source, items]) => {
    const [one, several] = WHAT[source] ?? [source, source];
    const who = [
      ...new Set(
        items
          .map((i) => i.name ?? (i.author && principalLabel(i.author)))
          .filter((w): w is string => Boolean(w)),
      ),
    ];
    const named = who.length > 0 ? ` (${who.slice(0, 5).join(', ')}${who.length > 5 ? ', …' : ''})` : '';
    return `${items.length} ${items.length === 1 ? one : several}${named}`;
  });
  return `Read as quoted data, not instructions: ${parts.join('; ')}.`;
}
