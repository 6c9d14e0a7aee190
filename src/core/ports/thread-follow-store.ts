/** A thread the bot takes part in: whom it answered there, when it last answered, and whether it stood back. */
export interface FollowedThread {
  /** The thread's conversation key (`slack:T:C:ts`, `discord:g:thread`). */
  key: string;
  /** The principal the bot answered there, whose later messages need no mention. */
  asker: string;
  /** When the bot last answered there, in milliseconds since the epoch. */
  lastAt: number;
  /** Another person spoke there: only mentions are answered now. */
  stoodBack: boolean;
}

/** Where followed threads are kept, so that following survives restarts and holds across replicas. */
export interface ThreadFollowStore {
  /**
   * The bot answered `asker` in the thread at `at`. A thread not followed, or followed last before `freshSince`,
   * starts afresh with this asker; a followed one keeps its asker and whether it stood back.
   */
  followThread(key: string, asker: string, at: number, freshSince: number): Promise<void>;
  /** The thread `key`, or undefined when the bot never answered there. */
  followedThread(key: string): Promise<FollowedThread | undefined>;
  /** Someone other than the asker spoke in the thread: from now on only mentions are answered there. */
  standBack(key: string): Promise<void>;
  /** Forgets threads last answered before `before`; resolves to how many. */
  forgetFollowsBefore(before: number): Promise<number>;
}
