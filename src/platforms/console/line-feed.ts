/** Input lines handed out one at a time: to a waiting approval prompt first, else to the chat's loop. */
export interface LineFeed {
  /** Feeds a line in; `undefined` marks the end of input. */
  push(line: string | undefined): void;
  /** The next line for the chat's loop (a buffered one first); undefined once input has ended. */
  next(): Promise<string | undefined>;
  /**
   * The next line for a prompt, taken ahead of the loop (a buffered one first, so a piped answer counts);
   * resolves undefined when `signal` aborts first, leaving the line for the loop.
   */
  answer(signal: AbortSignal): Promise<string | undefined>;
}

/** Creates a feed; lines that arrive while no one waits are kept in order. */
export function createLineFeed(): LineFeed {
  const buffered: (string | undefined)[] = [];
  let ended = false;
  let prompt: ((line: string | undefined) => void) | undefined;
  let loop: ((line: string | undefined) => void) | undefined;
  const take = () => (buffered.length > 0 ? buffered.shift() : undefined);
  return {
    push(line) {
      if (line === undefined) ended = true;
      const waiter = prompt ?? loop;
      if (!waiter) {
        buffered.push(line);
        return;
      }
      if (waiter === prompt) prompt = undefined;
      else loop = undefined;
      waiter(line);
    },
    next() {
      if (buffered.length > 0) return Promise.resolve(take());
      if (ended) return Promise.resolve(undefined);
      return new Promise((resolve) => {
        loop = resolve;
      });
    },
    answer(signal) {
      if (buffered.length > 0 && buffered[0] !== undefined) return Promise.resolve(take());
      if (ended || signal.aborted) return Promise.resolve(undefined);
      return new Promise((resolve) => {
        const onAbort = () => {
          if (prompt === settle) prompt = undefined;
          resolve(undefined);
        };
        const settle = (line: string | undefined) => {
          signal.removeEventListener('abort', onAbort);
          if (line === undefined) buffered.push(undefined);
          resolve(line);
        };
        prompt = settle;
        signal.addEventListener('abort', onAbort, { once: true });
      });
    },
  };
}
