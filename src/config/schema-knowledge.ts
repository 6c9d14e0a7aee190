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
    EMBEDDINGS_MODEL: optionalText.meta({
      description:
        'An embedding model (`text-embedding-3-small`, Ollama `nomic-embed-text`…): passages and archived turns ' +
        'are embedded in the background, and `search_knowledge` and `recall` find them by meaning as well as ' +
        'by words (fused by reciprocal rank), so a question in other words still finds its passage or turn.',
      unset: 'search by words only',
    }),
    EMBEDDINGS_BASE_URL: optionalUrl().meta({
      description: 'The OpenAI-compatible server of `EMBEDDINGS_MODEL` (`POST /embeddings`).',
      unset: '`OPENAI_BASE_URL`',
    }),
    EMBEDDINGS_API_KEY: optionalText.meta({
      description: 'API key of the embeddings server.',
      unset: '`OPENAI_API_KEY`',
    }),
    EMBEDDINGS_DIMENSIONS: int(0, 0).describe(
      'Vector size to ask of models that can shorten theirs (text-embedding-3-*; e.g. 256): smaller vectors ' +
        'keep memory down (one byte per dimension per passage) at little cost in quality. 0: the model’s own.',
    ),
  },
});
