/** What scheduled questions read from the configuration. */
export interface ScheduleSettings {
  /** Everyone may schedule recurring questions in channels, not only admins. */
  SCHEDULE_ANYONE: boolean;
  /** Schedules one person may have at once. */
  SCHEDULES_PER_PERSON: number;
  /** How late a run missed while every replica was down may still fire at start-up. */
  SCHEDULE_CATCH_UP_MS: number;
  /** The zone times are read and shown in when the person names none; the host's zone when unset. */
  DEFAULT_TIMEZONE?: string | undefined;
}
