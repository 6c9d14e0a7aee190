/** What a membership check found: still in, gone (leave the session), or could not tell (keep it for now). */
export type Membership =
  | { status: 'member'; roles: string[] }
  | { status: 'outside'; why: string }
  | { status: 'unknown'; why: string };

/**
 * A sign-in refused because the person is outside the deployment's server or workspace: `page` is what
 * they are shown (it names the place and why), never a stack trace.
 */
export class OutsideError extends Error {
  constructor(readonly page: string) {
    super(page);
    this.name = 'OutsideError';
  }
}

/** How long a membership call may take before it counts as "could not tell". */
export const MEMBERSHIP_TIMEOUT_MS = 10_000;

/** GETs `url` with `authorization` and reads JSON (or nothing); network failures come back as status 0. */
export async function getJson(
  url: string,
  authorization: string,
): Promise<{ status: number; body: Record<string, unknown> | undefined }> {
  try {
    const res = await fetch(url, {
      headers: { authorization, accept: 'application/json' },
      signal: AbortSignal.timeout(MEMBERSHIP_TIMEOUT_MS),
    });
    const text = await res.text();
    let body: Record<string, unknown> | undefined;
    try {
      const parsed: unknown = JSON.parse(text);
      body = parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : undefined;
    } catch {
      body = undefined;
    }
    return { status: res.status, body };
  } catch {
    return { status: 0, body: undefined };
  }
}
