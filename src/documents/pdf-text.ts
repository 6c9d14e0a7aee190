import { DocumentError, type ExtractedDocument, type ExtractLimits } from './document-types.js';
import { textBudget } from './text-budget.js';

/** What pdf.js gives back per text item. */
interface TextItem {
  str?: string;
  hasEOL?: boolean;
}

/**
 * A PDF's text (pdf.js through unpdf's serverless build), one section per page, read page by page until the
 * character cap. Password-protected and damaged files are refused in a plain sentence.
 */
export async function pdfText(bytes: Uint8Array, limits: ExtractLimits): Promise<ExtractedDocument> {
  const { getDocumentProxy } = await import('unpdf');
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    pdf = await getDocumentProxy(new Uint8Array(bytes), { isEvalSupported: false, stopAtErrors: false });
  } catch (err) {
    const name = (err as { name?: string }).name;
    if (name === 'PasswordException') throw new DocumentError('it is password-protected');
    throw new DocumentError('it is damaged or not a valid PDF');
  }
  try {
    const budget = textBudget(limits.maxChars);
    for (let number = 1; number <= pdf.numPages; number++) {
      const page = await pdf.getPage(number);
      const content = await page.getTextContent();
      page.cleanup();
      const text = (content.items as TextItem[])
        .map((item) => `${item.str ?? ''}${item.hasEOL ? '\n' : ''}`)
        .join('');
      if (!budget.add({ page: number, text })) break;
    }
    return budget.done(pdf.numPages);
  } catch (err) {
    if (err instanceof DocumentError) throw err;
    throw new DocumentError('it is damaged or not a valid PDF');
  } finally {
    await pdf.destroy().catch(() => {});
  }
}
