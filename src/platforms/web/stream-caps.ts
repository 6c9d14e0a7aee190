/** Open event streams, bounded in all and per client address. */
export interface StreamCaps {
  /** Takes a place for a stream from `address`: the function that gives it back, or undefined when full. */
  take(address: string): (() => void) | undefined;
}

/** Event streams one client address may hold open (tabs, devices behind one router). */
export const MAX_STREAMS_PER_ADDRESS = 8;

/** At most `total` streams in all and `perAddress` from one address. */
export function createStreamCaps(total: number, perAddress = MAX_STREAMS_PER_ADDRESS): StreamCaps {
  const byAddress = new Map<string, number>();
  let open = 0;
  return {
    take(address) {
      const mine = byAddress.get(address) ?? 0;
      if (open >= total || mine >= perAddress) return undefined;
      open += 1;
      byAddress.set(address, mine + 1);
      let given = false;
      return () => {
        if (given) return;
        given = true;
        open -= 1;
        const left = (byAddress.get(address) ?? 1) - 1;
        if (left > 0) byAddress.set(address, left);
        else byAddress.delete(address);
      };
    },
  };
}
