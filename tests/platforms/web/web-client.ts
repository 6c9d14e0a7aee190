import { waitUntil } from '../../helpers/wait-until.js';

/** One server-sent event as received. */
export interface ReceivedEvent {
  event: string;
  data: unknown;
}

/** An open event stream: every event received so far, in order. */
export interface EventFeed {
  readonly events: ReceivedEvent[];
  /** Resolves with the first event (from `from` on) that `match` accepts. */
  next(match: (e: ReceivedEvent) => boolean, from?: number): Promise<ReceivedEvent>;
  close(): void;
}

/** A response: its status and JSON body (null when empty). */
export interface Reply {
  status: number;
  body: Record<string, unknown> | null;
  headers: Headers;
}

/** `/api/events` answered with something other than a stream. */
export class EventsRefused extends Error {
  constructor(
    readonly status: number,
    readonly headers: Headers,
  ) {
    super(`events: status ${status}`);
  }
}

/** A browser without the page: a cookie jar, JSON requests and the event stream. */
export class WebClient {
  readonly cookies = new Map<string, string>();
  /** Headers sent with every request (e.g. X-Forwarded-For, to stand for another client behind a proxy). */
  readonly sendHeaders: Record<string, string> = {};
  constructor(readonly base: string) {}

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    return { ...this.sendHeaders, ...(cookie ? { cookie } : {}), ...extra };
  }

  /** Keeps the cookies a response sets, and drops those it expires (Max-Age=0), as a browser does. */
  keep(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      const name = pair!.slice(0, at);
      if (/;\s*Max-Age=0\b/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, pair!.slice(at + 1));
    }
  }

  /** A GET that does not follow redirects: what a browser is sent to next, and the cookies set on the way. */
  async visit(url: string | URL): Promise<{ status: number; location: string | undefined }> {
    const target = new URL(url, this.base);
    const sameSite = target.origin === new URL(this.base).origin;
    const res = await fetch(target, { redirect: 'manual', headers: sameSite ? this.headers() : {} });
    if (sameSite) this.keep(res);
    await res.arrayBuffer();
    const location = res.headers.get('location') ?? undefined;
    return { status: res.status, location: location && new URL(location, target).toString() };
  }

  /** GETs (no body) or POSTs JSON; resolves with the status and the parsed body (null when empty). */
  async request(path: string, body?: unknown): Promise<Reply> {
    const res = await fetch(new URL(path, this.base), {
      method: body === undefined ? 'GET' : 'POST',
      headers: this.headers(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    this.keep(res);
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
  }

  /** POSTs a form (multipart/form-data), as the chat page sends a question with a file. */
  async upload(path: string, form: FormData, headers: Record<string, string> = {}): Promise<Reply> {
    const res = await fetch(new URL(path, this.base), {
      method: 'POST',
      headers: this.headers(headers),
      body: form,
    });
    this.keep(res);
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
  }

  /** Opens `/api/events` and collects its events until closed. */
  async events(): Promise<EventFeed> {
    const controller = new AbortController();
    const res = await fetch(new URL('/api/events', this.base), {
      headers: this.headers(),
      signal: controller.signal,
    });
    this.keep(res);
    if (res.status !== 200 || !res.body) {
      controller.abort();
      throw new EventsRefused(res.status, res.headers);
    }
    const events: ReceivedEvent[] = [];
    void (async () => {
      const decoder = new TextDecoder();
      let buffer = '';
      try {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          buffer += decoder.decode(chunk, { stream: true });
          let end = buffer.indexOf('\n\n');
          while (end >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const event = /^event: (.*)$/m.exec(block)?.[1];
            const data = /^data: (.*)$/m.exec(block)?.[1];
            if (event && data) events.push({ event, data: JSON.parse(data) });
            end = buffer.indexOf('\n\n');
          }
        }
      } catch {
        // aborted by close()
      }
    })();
    return {
      events,
      async next(match, from = 0) {
        let found: ReceivedEvent | undefined;
        await waitUntil(
          () => {
            found = events.slice(from).find(match);
            return found !== undefined;
          },
          { timeoutMs: 15_000, what: () => `an event; got ${JSON.stringify(events.slice(from))}` },
        );
        return found!;
      },
      close: () => controller.abort(),
    };
  }
}
