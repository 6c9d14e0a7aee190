/**
 * A promise-like that starts `work` only when first awaited, and shares its result after that: work handed
 * to the core this way runs in the channel's turn, after the questions before it were answered.
 */
export function lazy<T>(work: () => Promise<T>): PromiseLike<T> {
  let started: Promise<T> | undefined;
  return {
    // biome-ignore lint/suspicious/noThenProperty: this object is meant to be awaited.
    then(onFulfilled, onRejected) {
      started ??= work();
      return started.then(onFulfilled, onRejected);
    },
  };
}
