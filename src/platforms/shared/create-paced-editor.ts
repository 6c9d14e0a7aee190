/** Sends the latest text of a streaming message, at most once per interval, never two requests at once. */
export interface PacedEditor {
  /** Records the text to show; it is sent now or at the next allowed moment, superseding any older pending text. */
  set(text: string): void;
  /** Sends the last text (respecting the pace) and resolves once it is delivered; rejects if that send fails. */
  finish(text?: string): Promise<void>;
}

/** Options of {@link createPacedEditor}. */
export interface PacedEditorOptions {
  /**
   * The first send posts the message rather than editing it: the edit after it goes out at once, and the
   * pace applies from there (the interval limits later edits, not the first words on screen).
   */
  firstSendPosts?: boolean;
}

/**
 * Paces edits of one message: platforms rate-limit edits (Discord about 5 per 5 s per channel, Slack
 * chat.update about 50 per minute), and a streamed answer produces far more deltas than that.
 * Intermediate failures are reported to `onError` and do not stop later edits.
 */
export function createPacedEditor(
  send: (text: string) => Promise<void>,
  intervalMs: number,
  onError: (err: unknown) => void = () => {},
  options: PacedEditorOptions = {},
): PacedEditor {
  let unpaced = options.firstSendPosts ? 1 : 0;
  let pending: string | undefined;
  /** The newest text asked for, sent or not: what the message must end up showing. */
  let latest: string | undefined;
  let lastSent: string | undefined;
  let lastAt = Number.NEGATIVE_INFINITY;
  let inFlight: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let finished = false;

  const afterWait = () => {
    timer = undefined;
    pump();
  };
  const pump = (): void => {
    if (finished || inFlight || timer || pending === undefined) return;
    const wait = lastAt + intervalMs - Date.now();
    if (wait > 0) {
      timer = setTimeout(afterWait, wait);
      return;
    }
    const text = pending;
    pending = undefined;
    if (text === lastSent) return;
    const paced = unpaced === 0;
    if (!paced) unpaced--;
    lastAt = paced ? Date.now() : Number.NEGATIVE_INFINITY;
    inFlight = send(text)
      .then(
        () => {
          lastSent = text;
        },
        (err) => {
          onError(err);
        },
      )
      .finally(() => {
        if (paced) lastAt = Date.now();
        inFlight = undefined;
        pump();
      });
  };

  return {
    set(text) {
      pending = text;
      latest = text;
      pump();
    },
    async finish(text) {
      const final = text ?? latest;
      pending = undefined;
      finished = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      while (inFlight) await inFlight;
      if (final === undefined || final === lastSent) return;
      const wait = lastAt + intervalMs - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      await send(final);
      lastSent = final;
    },
  };
}
