/** A signal of one call that aborts with its parent; `dispose()` unhooks it from the parent. */
export interface LinkedSignal {
  readonly signal: AbortSignal;
  dispose(): void;
}

/**
 * A child of `parent` for one call. The openai SDK adds an abort listener to the signal it is given and never
 * removes it, so a long-lived signal handed to it gains one per request; a child is dropped after its call.
 */
export function linkedSignal(parent: AbortSignal | undefined): LinkedSignal {
  const controller = new AbortController();
  const onAbort = () => controller.abort(parent?.reason);
  if (parent?.aborted) controller.abort(parent.reason);
  else parent?.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    dispose: () => parent?.removeEventListener('abort', onAbort),
  };
}
