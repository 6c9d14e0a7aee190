/**
 * A user's Slack message as plain text for the model: the bot's own mention removed, entities decoded,
 * and Slack's `<…>` markup turned into what people see (`@name`, `#channel`, `label (url)`).
 */
export function questionFromSlack(text: string, botUserId?: string): string {
  return text
    .replace(/<([^<>]*)>/g, (_, inner: string) => {
      const [target = '', label] = inner.split('|', 2);
      if (target.startsWith('@')) return target.slice(1) === botUserId ? '' : `@${label ?? target.slice(1)}`;
      if (target.startsWith('#')) return `#${label ?? target.slice(1)}`;
      if (target.startsWith('!')) return `@${label ?? target.slice(1).split('^')[0]}`;
      if (!label || target.endsWith(label)) return label ?? target; // Slack's own auto-links: the text is the link
      return `${label} (${target})`;
    })
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/[ \t]{2,}/g, ' ')
    .trim();
}
