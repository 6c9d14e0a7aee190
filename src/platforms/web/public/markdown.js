// A small markdown subset for model answers. Nothing the model writes becomes markup: every piece of text
// is HTML-escaped exactly once, and the only tags and attributes are the ones written below.

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)/;
const LIST_ITEM = /^ {0,3}([-*+]|\d{1,9}[.)])\s+(.*)$/;
const HEADING = /^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const RULE = /^ {0,3}([-*_])(\s*\1){2,}\s*$/;
const QUOTE = /^ {0,3}>\s?(.*)$/;
const TABLE_DIVIDER = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;
const HOLE = /\u0000(\d+)\u0000/g;
const HAS_HOLE = /\u0000\d+\u0000/;

/** Escapes the five characters that matter in HTML text and attribute values. */
export function escapeHtml(text) {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const CODE_SPAN = /(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g;
// A URL never holds whitespace, a character that could end an HTML attribute or start a tag, nor a hole
// marker (below), so neither markup nor a held piece can end up inside an href. A link's address may hold
// one level of parentheses, as CommonMark allows (Wikipedia's "Mercury_(planet)").
const LINK = /\[([^\]\n]+)\]\(((?:https?:\/\/|mailto:)(?:[^\s()<>"'\u0000]|\([^\s()<>"'\u0000]*\))+)\)/g;
const BARE_URL = /\bhttps?:\/\/[^\s<>"'\u0000]+/g;

/** Splits the sentence's punctuation, emphasis markers and unbalanced ")" off the end of a bare URL. */
function splitUrlTail(url) {
  let end = url.length;
  const open = url.split('(').length - 1;
  let close = url.split(')').length - 1;
  while (end > 0) {
    const last = url[end - 1];
    if (last === ')' ? open >= close : !/[.,;:!?*_~[\]]/.test(last)) break;
    if (last === ')') close--;
    end--;
  }
  return [url.slice(0, end), url.slice(end)];
}

/** Emphasis of an escaped text: bold, italic, strikethrough. */
function emphasis(escaped) {
  return escaped
    .replace(/(\*\*|__)(?=\S)([\s\S]*?\S)\1/g, '<strong>$2</strong>')
    .replace(/(^|[^*\w])\*(?=\S)([^*]*?\S)\*(?![*\w])/g, '$1<em>$2</em>')
    .replace(/(^|[^_\w])_(?=\S)([^_]*?\S)_(?![_\w])/g, '$1<em>$2</em>')
    .replace(/~~(?=\S)([\s\S]*?\S)~~/g, '<del>$1</del>');
}

/**
 * Inline markup of one line: code spans, links, bold, italic, strikethrough. Each construct is found in the
 * raw text, escaped on its own and held out of the text behind a hole marker, so what comes later (URLs,
 * emphasis) can neither match inside it nor take it into an attribute; the rest is escaped as a whole.
 */
function inline(line) {
  const held = [];
  const hold = (html) => `\u0000${held.push(html) - 1}\u0000`;
  const link = (label, href) =>
    hold(`<a href="${escapeHtml(href)}" target="_blank" rel="noopener noreferrer nofollow">${label}</a>`);
  const text = line
    .replace(CODE_SPAN, (_, _ticks, code) => hold(`<code>${escapeHtml(code.trim())}</code>`))
    .replace(LINK, (_, label, href) => link(emphasis(escapeHtml(label)), href))
    .replace(BARE_URL, (url) => {
      const [href, tail] = splitUrlTail(url);
      return (/^https?:\/\/./.test(href) ? link(escapeHtml(href), href) : href) + tail;
    });
  let html = emphasis(escapeHtml(text));
  // Held pieces may hold others (a code span inside a link label).
  while (HAS_HOLE.test(html)) html = html.replace(HOLE, (_, i) => held[Number(i)]);
  return html;
}

/** The cells of a table row, escaped and marked up. */
function cells(line, tag) {
  const parts = line.trim().replace(/^\|/, '').replace(/\|$/, '').split('|');
  return `<tr>${parts.map((cell) => `<${tag}>${inline(cell.trim())}</${tag}>`).join('')}</tr>`;
}

/** Renders `text` (markdown, possibly cut mid-stream) as HTML that carries no markup from the text itself. */
export function renderMarkdown(text) {
  const lines = String(text)
    .replace(/\u0000/g, '')
    .replace(/\r\n?/g, '\n')
    .split('\n');
  const out = [];
  let paragraph = [];
  let list;
  const flushParagraph = () => {
    if (paragraph.length > 0) out.push(`<p>${paragraph.map((l) => inline(l)).join('<br>')}</p>`);
    paragraph = [];
  };
  const flushList = () => {
    if (list)
      out.push(`<${list.tag}>${list.items.map((i) => `<li>${inline(i)}</li>`).join('')}</${list.tag}>`);
    list = undefined;
  };
  const flush = () => {
    flushParagraph();
    flushList();
  };

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const fence = FENCE.exec(line);
    if (fence) {
      flush();
      const marker = fence[1];
      const lang = /^[\w+#.-]{1,20}$/.test(fence[2]) ? fence[2] : '';
      const code = [];
      for (i++; i < lines.length; i++) {
        const close = lines[i].trim();
        if (close.startsWith(marker[0].repeat(marker.length)) && /^(`+|~+)$/.test(close)) break;
        code.push(lines[i]);
      }
      const label = lang ? ` data-lang="${escapeHtml(lang)}"` : '';
      out.push(`<pre${label}><code>${escapeHtml(code.join('\n'))}</code></pre>`);
      continue;
    }
    if (!line.trim()) {
      flush();
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      flush();
      const level = Math.min(heading[1].length + 2, 6);
      out.push(`<h${level}>${inline(heading[2])}</h${level}>`);
      continue;
    }
    if (RULE.test(line)) {
      flush();
      out.push('<hr>');
      continue;
    }
    if (line.includes('|') && (lines[i + 1] ?? '').includes('|') && TABLE_DIVIDER.test(lines[i + 1])) {
      flush();
      const rows = [cells(line, 'th')];
      for (i += 2; i < lines.length && lines[i].includes('|') && lines[i].trim(); i++)
        rows.push(cells(lines[i], 'td'));
      i--;
      out.push(`<table><thead>${rows[0]}</thead><tbody>${rows.slice(1).join('')}</tbody></table>`);
      continue;
    }
    const quote = QUOTE.exec(line);
    if (quote) {
      flush();
      const quoted = [quote[1]];
      while (i + 1 < lines.length && QUOTE.test(lines[i + 1])) quoted.push(QUOTE.exec(lines[++i])[1]);
      out.push(`<blockquote>${renderMarkdown(quoted.join('\n'))}</blockquote>`);
      continue;
    }
    const item = LIST_ITEM.exec(line);
    if (item) {
      flushParagraph();
      const tag = /\d/.test(item[1]) ? 'ol' : 'ul';
      if (list && list.tag !== tag) flushList();
      list ??= { tag, items: [] };
      list.items.push(item[2]);
      continue;
    }
    if (list && /^\s+\S/.test(line)) {
      list.items[list.items.length - 1] += ` ${line.trim()}`;
      continue;
    }
    flushList();
    paragraph.push(line);
  }
  flush();
  return out.join('\n');
}
