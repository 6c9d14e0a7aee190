import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ExtractLimits } from '../../src/documents/document-types.js';
import { documentAsText, extractDocument } from '../../src/documents/extract-document.js';
import { makeDocx, makeLongXlsx, makePdf, makePptx, makeXlsx, makeZipBomb } from '../helpers/documents.js';

const LIMITS: ExtractLimits = { maxChars: 100_000, maxUnpackedBytes: 50_000_000 };
const fixture = (name: string) =>
  new Uint8Array(readFileSync(join(import.meta.dirname, '../fixtures/documents', name)));
const refusal = (name: string, bytes: Uint8Array, limits = LIMITS) =>
  extractDocument(name, undefined, bytes, limits).then(
    () => 'read',
    (err: Error) => `${err.name}: ${err.message}`,
  );

describe('reading documents', () => {
  it('reads a PDF page by page, each section with its page', async () => {
    const pdf = await makePdf([
      'Travel policy',
      'Hotels up to 150 EUR a night.\nTrains first class over 4 hours.',
      'Taxis only at night.',
    ]);
    const doc = await extractDocument('policies/travel.pdf', 'application/pdf', pdf, LIMITS);
    expect(doc.parts).toBe(3);
    expect(doc.sections.map((s) => s.page)).toEqual([1, 2, 3]);
    expect(doc.sections[1]!.text).toContain('Hotels up to 150 EUR a night.');
    expect(doc.truncated).toBe(false);
  });

  it('reads a Word file in sections by its headings', async () => {
    const docx = await makeDocx([
      { heading: 'Rotation', text: 'Swaps need the manager’s OK two days ahead.' },
      { heading: 'Escalation', text: 'Page the lead after 15 minutes.' },
    ]);
    const doc = await extractDocument('oncall.docx', undefined, docx, LIMITS);
    expect(doc.sections).toEqual([
      { heading: 'Rotation', text: 'Swaps need the manager’s OK two days ahead.' },
      { heading: 'Escalation', text: 'Page the lead after 15 minutes.' },
    ]);
  });

  it('reads a PowerPoint file slide by slide, with speaker notes', async () => {
    const pptx = await makePptx([
      { text: 'Q3 review' },
      { text: 'Revenue up 5%', notes: 'Mention the Berlin deal' },
    ]);
    const doc = await extractDocument('review.pptx', undefined, pptx, LIMITS);
    expect(doc.sections.map((s) => s.heading)).toEqual(['Slide 1', 'Slide 2']);
    expect(doc.sections[1]!.text).toContain('Revenue up 5%');
    expect(doc.sections[1]!.text).toContain('Notes: Mention the Berlin deal');
  });

  it('reads an Excel workbook sheet by sheet, a row per line', async () => {
    const xlsx = await makeXlsx({
      Budget: [
        ['Item', 'Cost'],
        ['Laptops', 1200],
        ['Desks', 300],
      ],
      People: [['Ann']],
    });
    const doc = await extractDocument('budget.xlsx', undefined, xlsx, LIMITS);
    expect(doc.sections).toEqual([
      { heading: 'Sheet Budget', text: 'Item\tCost\nLaptops\t1200\nDesks\t300' },
      { heading: 'Sheet People', text: 'Ann' },
    ]);
  });

  it('reads HTML without its scripts and styles, and Markdown by headings', async () => {
    const html =
      '<html><head><title>x</title><style>p{}</style></head><body><h1>Setup</h1><p>Run <b>npm</b> &amp; go.</p><script>alert(1)</script><h2>Ports</h2><p>8080</p></body></html>';
    const page = await extractDocument('setup.html', undefined, new TextEncoder().encode(html), LIMITS);
    expect(page.sections).toEqual([
      { heading: 'Setup', text: 'Run npm & go.' },
      { heading: 'Ports', text: '8080' },
    ]);
    const md = '# Handbook\nIntro\n## Rotation\nWeekly.\n```\n# not a heading\n```\n';
    const notes = await extractDocument('handbook.md', undefined, new TextEncoder().encode(md), LIMITS);
    expect(notes.sections.map((s) => s.heading)).toEqual(['Handbook', 'Rotation']);
    expect(notes.sections[1]!.text).toContain('# not a heading');
    expect(documentAsText(notes)).toContain('## Rotation\nWeekly.');
  });

  it('stops a 300-page PDF and a 100,000-row sheet at the character cap, saying it was cut', async () => {
    const pages = Array.from(
      { length: 300 },
      (_, i) => `Page ${i + 1} of the big manual: lorem ipsum dolor sit amet.`,
    );
    const pdf = await extractDocument('manual.pdf', undefined, await makePdf(pages), {
      ...LIMITS,
      maxChars: 2000,
    });
    expect(pdf.truncated).toBe(true);
    expect(pdf.parts).toBe(300);
    expect(documentAsText(pdf).length).toBeLessThan(2500);
    const sheet = await extractDocument('items.xlsx', undefined, makeLongXlsx(100_000), {
      ...LIMITS,
      maxChars: 5000,
    });
    expect(sheet.truncated).toBe(true);
    expect(sheet.sections[0]!.text.startsWith('item 1\t3\nitem 2\t6')).toBe(true);
    expect(documentAsText(sheet).length).toBeLessThanOrEqual(5100);
  });

  it('refuses encrypted, damaged and zip-bomb files in a few plain words', async () => {
    expect(await refusal('secret.pdf', fixture('encrypted.pdf'))).toBe(
      'DocumentError: it is password-protected',
    );
    const ole = new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0, 0]);
    expect(await refusal('secret.docx', ole)).toBe('DocumentError: it is password-protected');
    const junk = new TextEncoder().encode('this is not really a document '.repeat(20));
    expect(await refusal('broken.pdf', junk)).toBe('DocumentError: it is damaged or not a valid PDF');
    expect(await refusal('broken.xlsx', junk)).toBe(
      'DocumentError: it is damaged or not a valid Office file',
    );
    expect(await refusal('broken.docx', junk)).toBe(
      'DocumentError: it is damaged or not a valid Office file',
    );
    const bomb = makeZipBomb(60);
    expect(bomb.length).toBeLessThan(1_000_000);
    expect(await refusal('bomb.docx', bomb)).toBe('DocumentError: it unpacks to more than 50 MB');
    expect(await refusal('bomb.xlsx', bomb, LIMITS)).toBe('read');
    expect(await refusal('photo.bin', junk)).toBe('DocumentError: its format is not one the bot reads');
  });
});
