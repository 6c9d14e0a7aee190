import { Document, HeadingLevel, Packer, Paragraph } from 'docx';
import ExcelJS from 'exceljs';
import { strToU8, zipSync } from 'fflate';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import PptxGenJS from 'pptxgenjs';

/** A PDF (pdf-lib) with one page per entry, each line of it drawn on its page. */
export async function makePdf(pages: readonly string[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const text of pages) {
    const page = doc.addPage();
    text.split('\n').forEach((line, i) => {
      page.drawText(line, { x: 50, y: 750 - i * 16, font, size: 11 });
    });
  }
  return doc.save();
}

/** A Word file (docx) with a heading and its paragraph per section. */
export async function makeDocx(sections: readonly { heading: string; text: string }[]): Promise<Uint8Array> {
  const children = sections.flatMap((s) => [
    new Paragraph({ text: s.heading, heading: HeadingLevel.HEADING_1 }),
    new Paragraph(s.text),
  ]);
  return new Uint8Array(await Packer.toBuffer(new Document({ sections: [{ children }] })));
}

/** A PowerPoint file (pptxgenjs) with one text box per slide and optional speaker notes. */
export async function makePptx(slides: readonly { text: string; notes?: string }[]): Promise<Uint8Array> {
  // Its types describe a CommonJS default; the ES module's default is the class itself.
  const Deck = ((PptxGenJS as unknown as { default?: unknown }).default ??
    PptxGenJS) as typeof PptxGenJS.default;
  const deck = new Deck();
  for (const s of slides) {
    const slide = deck.addSlide();
    slide.addText(s.text, { x: 0.5, y: 0.5, w: 9, h: 1 });
    if (s.notes) slide.addNotes(s.notes);
  }
  return new Uint8Array((await deck.write({ outputType: 'nodebuffer' })) as Buffer);
}

/** An Excel workbook (exceljs) with the given sheets and rows. */
export async function makeXlsx(sheets: Record<string, readonly (string | number)[][]>): Promise<Uint8Array> {
  const book = new ExcelJS.Workbook();
  for (const [name, rows] of Object.entries(sheets)) {
    const sheet = book.addWorksheet(name);
    for (const row of rows) sheet.addRow(row);
  }
  return new Uint8Array(await book.xlsx.writeBuffer());
}

/** A minimal workbook of `rows` numbered rows with inline strings, written directly (fast at 100,000 rows). */
export function makeLongXlsx(rows: number): Uint8Array {
  const cells: string[] = [];
  for (let r = 1; r <= rows; r++) {
    cells.push(
      `<row r="${r}"><c r="A${r}" t="inlineStr"><is><t>item ${r}</t></is></c><c r="B${r}"><v>${r * 3}</v></c></row>`,
    );
  }
  const ns = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
  const rel = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  return zipSync({
    '[Content_Types].xml': strToU8(
      '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>',
    ),
    'xl/workbook.xml': strToU8(
      `<workbook xmlns="${ns}" xmlns:r="${rel}"><sheets><sheet name="Items" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ),
    'xl/_rels/workbook.xml.rels': strToU8(
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
    ),
    'xl/worksheets/sheet1.xml': strToU8(
      `<worksheet xmlns="${ns}"><sheetData>${cells.join('')}</sheetData></worksheet>`,
    ),
  });
}

/** A zip bomb dressed as a Word file: one part of `megabytes` MB of zeros, a few hundred KB packed. */
export function makeZipBomb(megabytes: number): Uint8Array {
  return zipSync({ 'word/document.xml': new Uint8Array(megabytes * 1_000_000) }, { level: 9 });
}
