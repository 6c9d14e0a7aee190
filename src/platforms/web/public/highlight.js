// A tiny code highlighter: comments, strings, numbers and keywords of a few common languages. It works on
// the code's text and builds text nodes and spans from it (textContent only, never HTML), so it cannot undo
// the markdown renderer's escaping.

const KEYWORDS = new Set(
  (
    'if else elif for while do return function const let var class import export from def in not and or is ' +
    'None True False null true false undefined new try catch finally except raise throw async await yield ' +
    'with as switch case break continue default public private protected static void int fn mut pub struct ' +
    'enum impl match use package func type interface this self super extends implements lambda pass echo then ' +
    'fi done esac local select where insert update delete create table into values order group by join on'
  ).split(' '),
);
const HASH_COMMENTS = new Set([
  'python',
  'py',
  'sh',
  'bash',
  'shell',
  'zsh',
  'ruby',
  'rb',
  'yaml',
  'yml',
  'toml',
  'r',
  'perl',
  'dockerfile',
  'make',
  'makefile',
]);
const DASH_COMMENTS = new Set(['sql', 'lua', 'haskell', 'hs']);
const SLASH_COMMENTS = String.raw`\/\/[^\n]*|\/\*[\s\S]*?\*\/`;
const REST = String.raw`("(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|\x60(?:\\.|[^\x60\\])*\x60)|(\b\d[\d_]*(?:\.\d+)?\b)|([A-Za-z_]\w*)`;

/** The token pattern of `lang`: its comments, then strings, numbers and words. */
function pattern(lang) {
  const comment = HASH_COMMENTS.has(lang)
    ? '#[^\\n]*'
    : DASH_COMMENTS.has(lang)
      ? '--[^\\n]*'
      : SLASH_COMMENTS;
  return new RegExp(`(${comment})|${REST}`, 'g');
}

/**
 * Splits `text` into pieces, each `{ kind, text }` with kind `comment`, `string`, `number`, `keyword` or
 * `plain`; joined, the pieces are `text` exactly.
 */
export function tokenize(text, lang = '') {
  const pieces = [];
  let at = 0;
  const push = (kind, piece) => {
    if (!piece) return;
    const prev = pieces.at(-1);
    if (prev && prev.kind === kind) prev.text += piece;
    else pieces.push({ kind, text: piece });
  };
  const language = lang.toLowerCase();
  // SQL's keywords are written in either case.
  const keyword = (word) => KEYWORDS.has(language === 'sql' ? word.toLowerCase() : word);
  for (const m of text.matchAll(pattern(language))) {
    push('plain', text.slice(at, m.index));
    const kind = m[1] ? 'comment' : m[2] ? 'string' : m[3] ? 'number' : keyword(m[4]) ? 'keyword' : 'plain';
    push(kind, m[0]);
    at = m.index + m[0].length;
  }
  push('plain', text.slice(at));
  return pieces;
}

/** Highlights a `<code>` element in place, from its text; `lang` picks the comment style. */
export function highlight(code, lang) {
  const nodes = tokenize(code.textContent ?? '', lang).map(({ kind, text }) => {
    if (kind === 'plain') return document.createTextNode(text);
    const span = document.createElement('span');
    span.className = `tok-${kind}`;
    span.textContent = text;
    return span;
  });
  code.replaceChildren(...nodes);
}
