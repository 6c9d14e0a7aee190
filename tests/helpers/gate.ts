/** A promise the test opens when it chooses: holds a fake's reply or a tool's work until then. */
export interface Gate {
  readonly promise: Promise<void>;
  open(): void;
}

/** Creates a closed {@link Gate}. */
export function createGate(): Gate {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}
