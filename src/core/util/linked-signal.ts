/** A signal of one call that aborts with its parent; `dispose()` unhooks it from the parent. */
export interface LinkedSignal {
  readonly signal: AbortSignal;
  dispose(): void;
}

/**
 * A child of `parents` for one call, aborted (with its reason) by whichever aborts first. The openai SDK adds
 * an abort listener to the signal it is given and never removes it, so a long-lived signal handed to it gains
 * one per request; a child is dropped after its call.
 */
export function linkedSignal(...parents: (AbortSignal | undefined)[]): LinkedSignal {
  const controller = new AbortController();
  const hooked: AbortSignal[] = [];
  const onAbort = (event: Event) => {
    controller.abort((event.target as AbortSignal).reason);
    dispose();
  };
  const dispose = () => {
    for (const parent of hooked) parent.removeEventListener('abort', onAbort);
    hooked.length = 0;
  };
  for (const parent of parents) {
    if (!parent) continue;
    if (parent.aborted) {
      controller.abort(parent.reason);
      dispose();
      break;
    }
    parent.addEventListener('abort', onAbort, { once: true });
    hooked.push(parent);
  }
  return { signal: controller.signal, dispose };
}
