import type { ExtractedDocument, ExtractLimits } from './document-types.js';
import { decodeEntities } from './html-text.js';
import { byNumber, officeParts, xmlOf } from './office-zip.js';
import { textBudget } from './text-budget.js';

const SHEET = /^xl\/worksheets\/sheet\d+\.xml$/;

/** The shared strings of a workbook, by index (rich text runs joined). */
function sharedStrings(xml: string): string[] {
  return [...xml.matchAll(/<si>([\s\S]*?)<\/si>/g)].map((si) =>
    [...si[1]!.matchAll(/<t(?:\s[^>]*)?>([^<]*)<\/t>/g)].map((t) => decodeEntities(t[1]!)).join(''),
  );
}

/** The sheet names in workbook order, by their part (`xl/worksheets/sheet1.xml`), read from the relationships. */
function sheetNames(workbook: string, rels: string): Map<string, string> {
  const targets = new Map(
    [...rels.matchAll(/<Relationship\b[^>]*\bId="([^"]+)"[^>]*\bTarget="([^"]+)"/g)].map((m) => [
      m[1]!,
      m[2]!,
    ]),
  );
  const names = new Map<string, string>();
  for (const m of workbook.matchAll(/<sheet\b[^>]*\bname="([^"]*)"[^>]*\br:id="([^"]+)"/g)) {
    const target = targets.get(m[2]!)?.replace(/^\/?(xl\/)?/, '');
    if (target) names.set(`xl/${target}`, decodeEntities(m[1]!));
  }
  return names;
}

/** One cell's value: a shared string, an inline string, or the value as written (numbers, booleans, formulas' results). */
function cellValue(cell: string, strings: readonly string[]): string {
  const type = /^<c\b[^>]*\bt="([^"]+)"/.exec(cell)?.[1];
  if (type === 'inlineStr') {
    return [...cell.matchAll(/<t(?:\s[^>]*)?>([^<]*)<\/t>/g)].map((t) => decodeEntities(t[1]!)).join('');
  }
  const value = /<v>([^<]*)<\/v>/.exec(cell)?.[1];
  if (value === undefined) return '';
  if (type === 's') return strings[Number(value)] ?? '';
  if (type === 'b') return value === '1' ? 'TRUE' : 'FALSE';
  return decodeEntities(value);
}

/**
 * An Excel workbook's text: one section per sheet (its name), one line per row with cells separated by tabs.
 * Stops at the character cap, however many rows there are (a 100,000-row sheet is read as far as it fits).
 */
export function xlsxText(bytes: Uint8Array, limits: ExtractLimits): ExtractedDocument {
  const wanted = (name: string) =>
    SHEET.test(name) ||
    name === 'xl/sharedStrings.xml' ||
    name === 'xl/workbook.xml' ||
    name === 'xl/_rels/workbook.xml.rels';
  const parts = officeParts(bytes, wanted, limits.maxUnpackedBytes);
  const strings = sharedStrings(xmlOf(parts.get('xl/sharedStrings.xml')));
  const names = sheetNames(
    xmlOf(parts.get('xl/workbook.xml')),
    xmlOf(parts.get('xl/_rels/workbook.xml.rels')),
  );
  const sheets = [...parts.keys()].filter((n) => SHEET.test(n)).sort(byNumber);
  const budget = textBudget(limits.maxChars);
  let room = limits.maxChars;
  for (const name of sheets) {
    const rows: string[] = [];
    let size = 0;
    for (const row of xmlOf(parts.get(name)).matchAll(/<row\b[^>]*>([\s\S]*?)<\/row>/g)) {
      const cells = [...row[1]!.matchAll(/<c\b[^>]*?(?:\/>|>[\s\S]*?<\/c>)/g)].map((c) =>
        cellValue(c[0], strings),
      );
      const line = cells.join('\t').trimEnd();
      if (!line) continue;
      rows.push(line);
      size += line.length + 1;
      if (size > room) break;
    }
    const heading = `Sheet ${names.get(name) ?? name.replace(/^.*\//, '')}`;
    if (!budget.add({ heading, text: rows.join('\n') })) break;
    room -= size;
  }
  return budget.done(sheets.length);
}
