/** Escapes the five characters that matter in HTML text and attribute values. */
export function escapeHtml(text: string): string;
/** Renders `text` (markdown, possibly cut mid-stream) as HTML that carries no markup from the text itself. */
export function renderMarkdown(text: string): string;
