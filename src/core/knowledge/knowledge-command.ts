import type { Asker } from '../governance/asker.js';
import { BASE_SCOPE, type KnowledgeFile, type KnowledgeStore } from '../ports/knowledge-store.js';

/** How `/knowledge` is used. */
export const KNOWLEDGE_USAGE = 'Usage: /knowledge list | forget <file name>';

/** What `/knowledge` needs. */
export interface KnowledgeCommandDeps {
  store: Pick<KnowledgeStore, 'knowledgeFiles' | 'forgetKnowledgeFile'>;
  isAdmin(asker: Asker): Promise<boolean>;
  /** KNOWLEDGE_DIR is set: `list` also sums up the knowledge base. */
  hasBase: boolean;
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const plural = (n: number, one: string, many = `${one}s`) =>
  `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

/** `/knowledge list | forget <file>`: the files shared in this channel, and forgetting one (its sharer or an admin). */
export function createKnowledgeCommand(deps: KnowledgeCommandDeps) {
  const describe = (file: KnowledgeFile, asker: Asker) =>
    `- ${file.path}: ${plural(file.passages, 'passage')}, shared ${file.sharedBy === asker.principal ? 'by you' : 'by someone'} on ${day(file.indexedAt)}`;

  async function list(asker: Asker, settingsKey: string): Promise<string> {
    const shared = await deps.store.knowledgeFiles(settingsKey);
    const lines = [
      shared.length === 0
        ? 'No files shared here are kept. Files attached to a question join this channel’s knowledge.'
        : `Files shared here (${shared.length}), searched only in this channel:\n${shared.map((f) => describe(f, asker)).join('\n')}`,
    ];
    if (deps.hasBase) {
      const base = await deps.store.knowledgeFiles(BASE_SCOPE);
      const failed = base.filter((f) => f.error);
      const broken = failed.map((f) => `\n- ${f.path}: ${f.error}`).join('');
      lines.push(
        `The knowledge base has ${plural(base.length - failed.length, 'document')}` +
          (failed.length > 0 ? `; ${plural(failed.length, 'file')} could not be read:${broken}` : '.'),
      );
    }
    return lines.join('\n\n');
  }

  async function forget(asker: Asker, settingsKey: string, name: string): Promise<string> {
    const file = (await deps.store.knowledgeFiles(settingsKey)).find((f) => f.path === name);
    if (!file) return `No file named “${name}” is kept here; /knowledge list shows them.`;
    if (file.sharedBy !== asker.principal && !(await deps.isAdmin(asker))) {
      return 'Only the person who shared that file, or an admin, can forget it.';
    }
    await deps.store.forgetKnowledgeFile(settingsKey, name);
    return `Forgot ${name} and its ${plural(file.passages, 'passage')}.`;
  }

  return async (asker: Asker, settingsKey: string, args: string): Promise<string> => {
    const match = /^\s*(\S*)\s*([\s\S]*?)\s*$/.exec(args);
    const word = (match?.[1] ?? '').toLowerCase();
    if (word === '' || word === 'list') return list(asker, settingsKey);
    if (word === 'forget' && match?.[2]) return forget(asker, settingsKey, match[2]);
    return KNOWLEDGE_USAGE;
  };
}
