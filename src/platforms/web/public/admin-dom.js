// What every admin view builds with: elements whose text is set with textContent (never parsed as HTML),
// the API's JSON, tables and number formats.

/** The element with this id. */
export const $ = (id) => document.getElementById(id);

export const number = (n) => (n === null || n === undefined ? '–' : Math.round(n).toLocaleString('en-US'));
export const ms = (n) =>
  n === null || n === undefined ? '–' : n < 1000 ? `${n} ms` : `${(n / 1000).toFixed(1)} s`;
export const dollars = (n) => (n === null || n === undefined ? '–' : `$${n.toFixed(n < 1 ? 4 : 2)}`);
/** A share (0–1) as a percentage. */
export const percent = (n) => (n === null || n === undefined ? '–' : `${(n * 100).toFixed(1)}%`);

/** An element with `content` as its text (never HTML) or its child node, and the given attributes. */
export function el(tag, content, attrs = {}) {
  const node = document.createElement(tag);
  if (content instanceof Node) node.append(content);
  else if (content !== undefined && content !== null) node.textContent = String(content);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  return node;
}

/** GETs an admin API path: its status and JSON body. */
export async function getJson(path) {
  const res = await fetch(path, { cache: 'no-store', headers: { accept: 'application/json' } });
  const body = res.status === 204 ? undefined : await res.json().catch(() => undefined);
  return { status: res.status, body };
}

/** The body of a 200 answer; anything else throws its error, for the status line. */
export async function getOk(path) {
  const { status, body } = await getJson(path);
  if (status !== 200) throw new Error(body?.error ?? String(status));
  return body;
}

/** Fills `node` (a table) with a header row and rows; a row's first cell is its heading. Cells are text or nodes. */
export function table(node, headings, rows) {
  const head = el('thead');
  const tr = el('tr');
  for (const h of headings) tr.append(el('th', h, { scope: 'col' }));
  head.append(tr);
  const body = el('tbody');
  if (rows.length === 0) {
    const empty = el('tr');
    empty.append(el('td', 'None in this period.', { colspan: String(headings.length) }));
    body.append(empty);
  }
  for (const row of rows) {
    const line = el('tr');
    row.forEach((cell, i) => {
      line.append(el(i === 0 ? 'th' : 'td', cell, i === 0 ? { scope: 'row' } : {}));
    });
    body.append(line);
  }
  node.replaceChildren(head, body);
}

/**
 * A person as the page names them: by the name the API gives (`names`: a signed-in name, or `browser 1a2b`
 * for a browser that did not sign in), their principal one hover away; else by their principal.
 */
export function person(principal, names) {
  if (!principal) return el('span', '');
  const name = names?.[principal];
  return el('span', name ?? principal, name ? { title: principal, 'data-principal': principal } : {});
}
