import type { ReadinessCheck } from '../server/http-server.js';
import type { PlatformAdapter } from './types.js';

/** The GET /readyz check of one platform: ready when connected and taking questions. */
export function platformCheck(adapter: PlatformAdapter): ReadinessCheck {
  return {
    name: adapter.name,
    check: () => {
      const state = adapter.readiness();
      return state.ready ? undefined : state.reason;
    },
  };
}
