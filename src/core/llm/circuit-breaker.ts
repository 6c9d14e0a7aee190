/**
 * One endpoint's circuit. Closed: requests go to it. Open (after a failure): it is skipped for `cooldownMs`.
 * Half-open (the cooldown is over): one request at a time tries it; success closes the circuit, failure
 * opens it for another cooldown.
 */
export interface CircuitBreaker {
  /** Whether a request may go to the endpoint now; once the cooldown is over, yes to one trial at a time. */
  acquire(): boolean;
  /** Whether {@link acquire} would say yes now, without taking the trial. */
  available(): boolean;
  /** The request answered: the circuit closes. */
  succeeded(): void;
  /** The endpoint is unavailable: the circuit opens for the cooldown. */
  failed(): void;
  /** The request ended in a way that says nothing of the endpoint (cancelled, a bad request): a trial is freed. */
  released(): void;
  /** `closed`, `open`, or `half-open` (cooldown over, or a trial in flight). */
  state(): 'closed' | 'open' | 'half-open';
}

/** Creates a closed circuit; `now` is the clock the cooldown is measured on. */
export function createCircuitBreaker(cooldownMs: number, now: () => number = Date.now): CircuitBreaker {
  let openUntil: number | undefined;
  let trial = false;
  const available = () => openUntil === undefined || (!trial && now() >= openUntil);
  return {
    available,
    acquire() {
      if (!available()) return false;
      if (openUntil !== undefined) trial = true;
      return true;
    },
    succeeded() {
      openUntil = undefined;
      trial = false;
    },
    failed() {
      openUntil = now() + cooldownMs;
      trial = false;
    },
    released() {
      trial = false;
    },
    state() {
      if (openUntil === undefined) return 'closed';
      return trial || now() >= openUntil ? 'half-open' : 'open';
    },
  };
}
