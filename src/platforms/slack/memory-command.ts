import { slackPrincipal } from '../../core/governance/principal.js';
import { questionFromSlack } from './slack-text.js';

/**
 * The words `Assistant.memoryCommand` takes for the text of a Slack `/memory` command: `notes`,
 * `remember …`, `forget 2`, `forget-me [--everywhere] [@person]`. A person named as a mention (`<@U1>` or
 * `<@U1|ana>`, how Slack escapes it) becomes their principal in `team`; undefined for empty text (the
 * memory report).
 */
export function slackMemoryArgs(text: string, team: string | undefined): string | undefined {
  const trimmed = text.trim();
  if (!trimmed) return undefined;
  // A note is kept as people see it: entities decoded, `<@U1|ana>` as `@ana`.
  if (!/^forget-me(\s|$)/i.test(trimmed)) return questionFromSlack(trimmed);
  return trimmed.replace(/<@([UW][A-Z0-9]+)(?:\|[^>]*)?>/g, (_, user: string) => slackPrincipal(user, team));
}

/** The usage line for text none of the memory commands takes. */
export function slackMemoryUsage(command: string): string {
  return (
    `Usage: ${command} (what I remember here), ${command} notes, ${command} remember <text> ` +
    `("me: <text>" for a note about you), ${command} forget <n>, ${command} promote|demote <n> (admins), ` +
    `${command} forget-me [--everywhere]`
  );
}
