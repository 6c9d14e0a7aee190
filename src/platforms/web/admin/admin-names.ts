import { principalLabel } from '../../../core/governance/principal.js';
import type { WebSessionStore } from '../../../core/ports/web-session-store.js';

/** Sessions read to find names: far more than people sign in at once on one deployment. */
const SESSIONS_READ = 1000;

/**
 * How the admin page names the people in a response: a browser that did not sign in as `browser 1a2b`,
 * someone signed in to the web chat by the name they signed in with (while a session of theirs is kept);
 * anyone else is shown by their principal, so nothing is in the map for them.
 */
export async function namesOf(
  principals: Iterable<string | null | undefined>,
  sessions: WebSessionStore | undefined,
): Promise<Record<string, string>> {
  const wanted = new Set([...principals].filter((p): p is string => typeof p === 'string' && p !== ''));
  const names: Record<string, string> = {};
  for (const p of wanted) if (p.startsWith('web:')) names[p] = principalLabel(p);
  if (sessions && [...wanted].some((p) => !(p in names))) {
    for (const s of await sessions.listWebSessions(SESSIONS_READ)) {
      if (wanted.has(s.principal) && !(s.principal in names) && s.name) names[s.principal] = s.name;
    }
  }
  return names;
}
