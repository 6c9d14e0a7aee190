/** Fetches `url` until `accept` says yes, or fails after `timeoutMs` naming the last answer seen. */
export async function waitForHttp(
  url: string,
  accept: (status: number, body: string) => boolean,
  options: { timeoutMs?: number; exited?: () => boolean } = {},
): Promise<{ status: number; body: string }> {
  const deadline = Date.now() + (options.timeoutMs ?? 15_000);
  let last = 'no answer yet';
  for (;;) {
    try {
      const res = await fetch(url);
      const body = await res.text();
      if (accept(res.status, body)) return { status: res.status, body };
      last = `${res.status} ${body}`;
    } catch (err) {
      last = err instanceof Error ? err.message : String(err);
    }
    if (options.exited?.()) throw new Error(`the process exited while waiting for ${url} (last: ${last})`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${url} (last: ${last})`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
