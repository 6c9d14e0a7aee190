import { bool, int, optionalText, optionalUrl } from './fields.js';
import { settingGroup } from './setting-group.js';

/** The team's documents (`search_knowledge`) and the files shared in channels. */
export const knowledgeSettings = settingGroup({
  title: 'Knowledge: documents and shared files',
  page: 'knowledge.md',
  shape: {
    KNOWLEDGE_DIR: optionalText.meta({
      description:
        'A folder of documents (Markdown, text, HTML, PDF, Word, PowerPoint, Excel) indexed at start and when ' +
        'files change; `search_knowledge` finds their passages with the file and page or section to cite.',
      unset: 'no knowledge base; only files shared in a channel are searched there',
    }),
    KNOWLEDGE_BASE_URL: optionalUrl().meta({
      description:
        'Where the knowledge base’s files can be read (a wiki or file server): cited sources link to ' +
        '`<KNOWLEDGE_BASE_URL>/<path>`.',
      unset: 'sources are named, not linked',
    }),
    KNOWLEDGE_SHARED_FILES: bool(true).describe(
      'Files the bot reads in a channel join that channel’s knowledge: `search_knowledge` there finds them ' +
        'later (never in another channel); `/knowledge list|forget`, `/reset` and forget-me remove them.',
    ),
    KNOWLEDGE_MAX_TOKENS: int(2000).describe(
      'Tokens of passages one `search_knowledge` call returns at most.',
    ),
  },
});
