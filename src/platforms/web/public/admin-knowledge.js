// The admin page's Knowledge view: KNOWLEDGE_DIR's documents as indexed (passages, size, when, why one could
// not be read) and a button that reads them all again. Every text from the store is set with textContent.

import { $, el, getOk, number, table } from './admin-dom.js';

const when = (ms) => new Date(ms).toLocaleString();
const size = (bytes) => (bytes < 1e6 ? `${(bytes / 1e3).toFixed(1)} KB` : `${(bytes / 1e6).toFixed(1)} MB`);

/** Shows the knowledge base in #knowledge-body; `say` reports progress and failures in the status line. */
export async function showKnowledge(say) {
  const body = await getOk('/admin/api/knowledge');
  const box = $('knowledge-body');
  if (!body.dir && body.files.length === 0) {
    box.replaceChildren(
      el('p', 'No knowledge base: set KNOWLEDGE_DIR to a folder of documents (see docs/knowledge.md).'),
    );
    return;
  }
  const failed = body.files.filter((f) => f.error).length;
  const passages = body.files.reduce((sum, f) => sum + f.passages, 0);
  const summary = el(
    'p',
    `${number(body.files.length)} files, ${number(passages)} passages` +
      (failed > 0 ? `; ${number(failed)} could not be read.` : '.'),
  );
  const grid = el('table');
  table(
    grid,
    ['File', 'Passages', 'Size', 'Indexed', 'Problem'],
    body.files.map((f) => [f.path, number(f.passages), size(f.size), when(f.indexedAt), f.error ?? '']),
  );
  const again = el('button', 'Re-index now', { type: 'button' });
  again.addEventListener('click', async () => {
    again.disabled = true;
    say('Re-indexing…');
    const res = await fetch('/admin/api/knowledge/reindex', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    const reply = await res.json().catch(() => undefined);
    again.disabled = false;
    if (res.status !== 200) {
      say(`Could not re-index: ${reply?.error ?? res.status}`);
      return;
    }
    const r = reply.report;
    await showKnowledge(say);
    say(`Re-indexed: ${r.indexed} read, ${r.failed} could not be read, ${r.removed} removed.`);
  });
  box.replaceChildren(summary, grid, ...(body.dir ? [again] : []));
}
