import type { FakeMessage } from '../../fakes/discord-server.js';

type Component = { type: number; content?: string; components?: Component[] };

/** Every component of a list, nested ones included. */
const nested = (components: Component[]): Component[] =>
  components.flatMap((c) => [c, ...nested(c.components ?? [])]);

/**
 * What a message shows as text, whichever way it was sent: its `content`, or (a components v2 message,
 * DISCORD_COMPONENTS_V2's default) its text displays one per line.
 */
export function shownText(message: Pick<FakeMessage, 'content' | 'components'>): string {
  const texts = nested((message.components ?? []) as Component[])
    .filter((c) => c.type === 10)
    .map((c) => c.content ?? '');
  return [message.content, ...texts].filter(Boolean).join('\n');
}
