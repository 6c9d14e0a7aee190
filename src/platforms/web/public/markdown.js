// A small markdown subset for model answers. Safety comes from the order: the text is HTML-escaped
// first, and only then are the few tags below added, so nothing the model writes becomes markup.

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

/** Inline markup of one escaped line: code spans, links, bold, italic, strikethrough. */
function inline(escaped) {
  const held = [];
  const hold = (html) => `\u0000${held.push(html) - 1}\u0000`;
  const link = (label, href) =>
    hold(`<a href="${href}" target="_blank" rel="noopener noreferrer nofollow">${label}</a>`);
  let text = escaped
    .replace(/(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g, (_, _ticks, code) => hold(`<code>${code.trim()}</code>`))
    .replace(/\[([^\]\n]+)\]\((https?:\/\/[^\s()]+|mailto:[^\s()]+)\)/g, (_, label, href) =>
      link(label, href),
    )
    .replace(/\bhttps?:\/\/[^\s<]*[^\s<.,;:!?)'"&]/g, (href) => link(href, href));
  text = text
    .replace(/(\*\*|__)(?=\S)([\s\S]*?\S)\1/g, '<strong>$2</strong>')
    .replace(/(^|[^*\w])\*(?=\S)([^*]*?\S)\*(?![*\w])/g, '$1<em>$2</em>')
    .replace(/(^|[^_\w])_(?=\S)([^_]*?\S)_(?![_\w])/g, '$1<em>$2</em>')
    .replace(/~~(?=\S)([\s\S]*?\S)~~/g, '<del>$1</del>');
  // Held pieces may hold others (a code span inside a link label).
  while (HAS_HOLE.test(text)) text = text.replace(HOLE, (_, i) => held[Number(i)]);
  return text;
}

/** The cells of a table row, escaped and marked up. */
function cells(line, tag) {
  const parts = line.trim().replace(/^\|/, '').replace(/\|$/, '').split('|');
  return `<tr>${parts.map((cell) => `<${tag}>${inline(escapeHtml(cell.trim()))}</${tag}>`).join('')}</tr>`;
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
    if (paragraph.length > 0) out.push(`<p>${paragraph.map((l) => inline(escapeHtml(l))).join('<br>')}</p>`);
    paragraph = [];
  };
  const flushList = () => {
    if (list)
      out.push(
        `<${list.tag}>${list.items.map((i) => `<li>${inline(escapeHtml(i))}</li>`).join('')}</${list.tag}>`,
      );
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
      out.push(`<h${level}>${inline(escapeHtml(heading[2]))}</h${level}>`);
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
