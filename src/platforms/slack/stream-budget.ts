/**
 * Streaming calls this process allows itself a minute per workspace, a little under each method's tier
 * (chat.startStream and chat.stopStream Tier 2, "20+ per minute"; chat.appendStream Tier 4, "100+ per
 * minute": Slack's method reference, `rate_limits`). Slack counts per workspace and app; replicas each count
 * only their own calls.
 */
export const STREAM_CALLS_PER_MINUTE = { start: 18, stop: 18, append: 90 } as const;

const WINDOW_MS = 60_000;

/** One native stream's share of its workspace's budget: its start is taken, and its stop reserved. */
export interface StreamTicket {
  /** Records the `chat.startStream` call, made now. */
  started(): void;
  /** 0 when an append may go now (and records it), else the ms to wait before asking again. */
  append(): number;
  /** Records the `chat.stopStream` call, made now, and frees the reserved stop. */
  stopped(): void;
  /** The reserved stop will not be made (the stream never started, or Slack ended it): frees it. */
  release(): void;
}

/** Counts this process's streaming calls per workspace over the last minute. */
export interface StreamBudget {
  /**
   * A ticket when `team` can afford one more stream now (a start, and a stop whenever it ends), else
   * undefined: the question is then answered with edited messages.
   */
  take(team: string): StreamTicket | undefined;
}

interface Team {
  starts: number[];
  stops: number[];
  appends: number[];
  /** Starts taken but not yet made. */
  pendingStarts: number;
  /** Stops reserved for streams taken and not yet stopped. */
  pendingStops: number;
}

/**
 * The budget: a stream is only taken while its stop is sure to fit, so stops always have room and no
 * message is left streaming. `limits` and `now` are for tests.
 */
export function createStreamBudget(
  limits: { start: number; stop: number; append: number } = STREAM_CALLS_PER_MINUTE,
  now: () => number = Date.now,
): StreamBudget {
  const teams = new Map<string, Team>();
  const recent = (times: number[]) => {
    const since = now() - WINDOW_MS;
    while (times.length > 0 && times[0]! <= since) times.shift();
    return times;
  };
  return {
    take(name) {
      let team = teams.get(name);
      if (!team) {
        team = { starts: [], stops: [], appends: [], pendingStarts: 0, pendingStops: 0 };
        teams.set(name, team);
      }
      const t = team;
      // Every stop reserved, plus those made this minute, stays within the stop tier: so a reserved stop
      // always fits, whenever it comes.
      if (recent(t.starts).length + t.pendingStarts >= limits.start) return undefined;
      if (recent(t.stops).length + t.pendingStops >= limits.stop) return undefined;
      t.pendingStarts++;
      t.pendingStops++;
      let start: 'pending' | 'made' | 'dropped' = 'pending';
      let stop: 'reserved' | 'done' = 'reserved';
      const dropStart = () => {
        if (start === 'pending') t.pendingStarts--;
      };
      return {
        started() {
          dropStart();
          if (start === 'pending') t.starts.push(now());
          start = 'made';
        },
        append() {
          const appends = recent(t.appends);
          if (appends.length < limits.append) {
            appends.push(now());
            return 0;
          }
          return Math.max(1, appends[0]! + WINDOW_MS - now() + 1);
        },
        stopped() {
          dropStart();
          start = start === 'pending' ? 'dropped' : start;
          if (stop === 'done') return;
          stop = 'done';
          t.pendingStops--;
          t.stops.push(now());
        },
        release() {
          dropStart();
          start = start === 'pending' ? 'dropped' : start;
          if (stop === 'done') return;
          stop = 'done';
          t.pendingStops--;
        },
      };
    },
  };
}
