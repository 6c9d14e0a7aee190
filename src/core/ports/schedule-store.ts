/** Scheduled questions: reminders and recurring runs, claimed once across replicas. */
export type ScheduleStore = Record<never, never>;
