/**
 * Markdown (what models write) to Slack mrkdwn (what Slack renders). Slack has no headings, no nested
 * emphasis markers of its own kind, `*bold*` instead of `**bold**`, `<url|text>` links, and treats
 * `&`, `<`, `>` as markup. Everything a model writes is escaped, so `<!channel>`, `<!here>`,
 * `<@U…>` or `<!subteam^…>` in model text show literally and never ping anyone.
 */

const ZWSP = '\u200B';
// Sentinels that cannot occur in model text once control characters are removed from it.
const BOLD = '\u0001';
const TOKEN_OPEN = '\u0002';
const TOKEN_CLOSE = '\u0003';

/** Escapes the three characters Slack treats as markup, so the text shows literally. */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Breaks `@channel`, `@here`, `@everyone` (any case) with a zero-width space so Slack never broadcasts them. */
export function neutraliseBroadcasts(text: string): string {
  return text.replace(/@(channel|here|everyone|group)\b/gi, `@${ZWSP}$1`);
}

/** Plain text (tool output, user input echoed back) made safe to show inside mrkdwn. */
export function plainToMrkdwn(text: string): string {
  return neutraliseBroadcasts(escapeMrkdwn(stripControls(text)));
}

/** Converts Markdown to Slack mrkdwn: bold, italics, strikethrough, links, code, lists, quotes and headings. */
export function markdownToMrkdwn(markdown: string): string {
  const lines = stripControls(markdown.replace(/\r\n?/g, '\n')).split('\n');
  const out: string[] = [];
  let fence: string | undefined; // the opening marker (``` or ~~~) while inside a code block
  for (const line of lines) {
    if (fence !== undefined) {
      if (line.trim().startsWith(fence) && line.trim().replace(/[`~]/g, '') === '') {
        out.push('```');
        fence = undefined;
      } else {
        out.push(codeBlockLine(line));
      }
      continue;
    }
    const open = /^\s{0,3}(`{3,}|~{3,})\s*[\w+#.-]*\s*$/.exec(line);
    if (open) {
      fence = open[1]!;
      out.push('```'); // Slack shows no language tag, so it is dropped
      continue;
    }
    out.push(convertLine(line));
  }
  // A streaming answer (or a split part) may stop inside a block: close it so the rest is not swallowed.
  if (fence !== undefined) out.push('```');
  return out.join('\n');
}

/** A line inside a code block: escaped, and unable to end Slack's block early. */
function codeBlockLine(line: string): string {
  return escapeMrkdwn(line.replace(/```/g, `\`${ZWSP}\`\``));
}

const QUOTE = /\s{0,3}>\s?/y;

function convertLine(line: string): string {
  const heading = /^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line);
  if (heading) return heading[1] ? `*${convertInline(heading[1], false)}*` : '';
  if (/^\s{0,3}([-*_])(?:\s*\1){2,}\s*$/.test(line)) return '──────────';
  // Nested quotes are counted, not recursed into: thousands of ">" must not exhaust the stack. A level
  // counts only if no line separator follows it (as with /^\s{0,3}>\s?(.*)$/, whose `.` stops at one).
  const lastBreak = Math.max(line.lastIndexOf('\u2028'), line.lastIndexOf('\u2029'));
  let depth = 0;
  let rest = 0;
  for (QUOTE.lastIndex = 0; QUOTE.test(line) && QUOTE.lastIndex > lastBreak; QUOTE.lastIndex = rest) {
    depth++;
    rest = QUOTE.lastIndex;
  }
  if (depth > 0) return `${'> '.repeat(depth)}${convertLine(line.slice(rest))}`;
  const bullet = /^(\s*)[-*+]\s+(?:\[([ xX])\]\s+)?(.*)$/.exec(line);
  if (bullet) {
    const level = Math.floor(bullet[1]!.replace(/\t/g, '  ').length / 2);
    const box = bullet[2] === undefined ? '' : bullet[2] === ' ' ? '☐ ' : '☑ ';
    return `${'    '.repeat(level)}${level % 2 ? '◦' : '•'} ${box}${convertInline(bullet[3]!)}`;
  }
  const numbered = /^(\s*)(\d{1,9})[.)]\s+(.*)$/.exec(line);
  if (numbered) {
    const level = Math.floor(numbered[1]!.replace(/\t/g, '  ').length / 2);
    return `${'    '.repeat(level)}${numbered[2]}. ${convertInline(numbered[3]!)}`;
  }
  return convertInline(line);
}

// Code spans | links and images (URLs may hold one level of parentheses) | <autolinks> | bare URLs | escapes.
// A link's text holds no brackets, so no "[" is read past the next one: the scan stays linear on "[[[[…".
const INLINE =
  /(`+)(.+?)\1(?!`)|(!?)\[([^[\]\n]*)\]\(\s*<?((?:[^\s<>()]|\([^\s<>()]*\))+)>?(?:\s+"[^"\n]*")?\s*\)|<((?:https?:\/\/|mailto:)[^\s<>]+)>|(https?:\/\/[^\s<>]+)|\\([\\`*_{}[\]()#+\-.!~|>])/g;

/** Converts the inline Markdown of one line; `bold` false drops bold markers (inside headings, already bold). */
function convertInline(text: string, bold = true): string {
  const tokens: string[] = [];
  const keep = (mrkdwn: string) => `${TOKEN_OPEN}${tokens.push(mrkdwn) - 1}${TOKEN_CLOSE}`;
  let s = text.replace(INLINE, (match, ticks, code, bang, label, href, autolink, bare, escaped) => {
    if (ticks !== undefined) return keep(`\`${escapeMrkdwn(code.trim().replace(/`/g, 'ˋ'))}\``);
    if (href !== undefined) {
      const url = safeUrl(href);
      if (!url) return keep(plainToMrkdwn(match));
      const shown = label.replace(/\*\*|__|`/g, '').trim() || (bang ? 'image' : href);
      return keep(`<${url}|${plainToMrkdwn(shown).replace(/\|/g, '¦')}>`);
    }
    if (autolink !== undefined) {
      const url = safeUrl(autolink);
      return keep(url ? `<${url}>` : plainToMrkdwn(match));
    }
    if (bare !== undefined) {
      // Punctuation and emphasis markers after a URL belong to the sentence, not the link.
      const [href, tail] = splitUrlTail(bare);
      const url = safeUrl(href);
      return (url ? keep(`<${url}>`) : href) + tail;
    }
    return keep(escapeMrkdwn(escaped));
  });
  s = escapeMrkdwn(s).replace(/\*\*\*(?=\S)([^*\n]+?)(?<=\S)\*\*\*/g, `${BOLD}_$1_${BOLD}`);
  s = pairDelimiters(s, '**', (inner) => `${BOLD}${inner}${BOLD}`);
  s = pairDelimiters(s, '__', (inner) => `${BOLD}${inner}${BOLD}`, true);
  s = s.replace(/(?<![*\w])\*(?=[^\s*])([^*\n]*?[^\s*])\*(?![*\w])/g, '_$1_');
  s = pairDelimiters(s, '~~', (inner) => `~${inner}~`);
  s = neutraliseBroadcasts(s).replace(/\u0001/g, bold ? '*' : '');
  return s.replace(/\u0002(\d+)\u0003/g, (_, i: string) => tokens[Number(i)]!);
}

const isSpace = (ch: string | undefined) => ch !== undefined && /\s/.test(ch);
const isWord = (ch: string | undefined) => ch !== undefined && /\w/.test(ch);

/**
 * Wraps each `marker`…`marker` pair as `/marker(?=\S)(.+?)(?<=\S)marker/g` would find it (with `word`, also
 * not inside a word), in one pass: that regex reads to the end of the line for every opener without a closer.
 */
function pairDelimiters(text: string, marker: string, wrap: (inner: string) => string, word = false): string {
  // `.` stops at these line breaks, so a pair never spans one.
  if (/[\u2028\u2029]/.test(text)) {
    return text
      .split(/([\u2028\u2029])/)
      .map((part, i) => (i % 2 ? part : pairDelimiters(part, marker, wrap, word)))
      .join('');
  }
  const m = marker.length;
  const closers: number[] = [];
  for (let q = text.indexOf(marker, 1); q !== -1; q = text.indexOf(marker, q + 1)) {
    if (!isSpace(text[q - 1]) && !(word && isWord(text[q + m]))) closers.push(q);
  }
  let out = '';
  let done = 0;
  let next = 0;
  for (let i = text.indexOf(marker); i !== -1; ) {
    if (text[i + m] !== undefined && !isSpace(text[i + m]) && !(word && isWord(text[i - 1]))) {
      while (next < closers.length && closers[next]! < i + m + 1) next++;
      const close = closers[next];
      if (close === undefined) break; // later openers would need a closer later still
      out += text.slice(done, i) + wrap(text.slice(i + m, close));
      done = close + m;
      i = text.indexOf(marker, done);
    } else {
      i = text.indexOf(marker, i + 1);
    }
  }
  return out + text.slice(done);
}

/** Splits trailing punctuation (and unbalanced closing parentheses) off a bare URL. */
function splitUrlTail(text: string): [string, string] {
  const opened = text.split('(').length - 1;
  let closed = text.split(')').length - 1;
  let end = text.length;
  while (end > 0) {
    const last = text[end - 1]!;
    const unbalanced = last === ')' && opened < closed;
    if (!unbalanced && !/[.,;:!?'"*_~\]]/.test(last)) break;
    if (last === ')') closed--;
    end--;
  }
  return [text.slice(0, end), text.slice(end)];
}

/**
 * The URL escaped for `<url|text>`, or undefined when it is not a web or mail link, names no address
 * (a bare `https://`) or would break the markup.
 */
function safeUrl(url: string): string | undefined {
  if (!/^(?:https?:\/\/|mailto:)[^|<>\s]+$/i.test(url)) return undefined;
  return url.replace(/&/g, '&amp;');
}

/** Control characters have no place in chat text, and the converter uses a few as sentinels. */
/** Removes control characters (tabs and newlines stay), which Slack would show as boxes or use as markup. */
export function stripControls(text: string): string {
  return text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, '');
}
