export function tokenize(text: string, lang?: string): { kind: string; text: string }[];
export function highlight(code: Element, lang: string): void;
