import type { SystemRunDelivery } from '../../core/ports/system-run-delivery.js';
import type { WorkTracker } from './work-tracker.js';

/** A platform's delivery of system runs, counted as its work in flight (shutdown waits for it), ready when `ready` says. */
export function trackedDelivery(
  delivery: SystemRunDelivery,
  work: Pick<WorkTracker, 'track'>,
  ready: () => boolean,
): SystemRunDelivery {
  const { lookUp } = delivery;
  return {
    deliver: (run) => work.track(delivery.deliver(run)),
    tell: (to, text) => work.track(delivery.tell(to, text)),
    ...(lookUp ? { lookUp: (whom) => lookUp.call(delivery, whom) } : {}),
    ready,
  };
}
