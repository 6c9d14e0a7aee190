import { randomBytes } from 'node:crypto';
import type { Asker } from '../governance/asker.js';
import { principalLabel } from '../governance/principal.js';
import type { Schedule, ScheduleStore } from '../ports/schedule-store.js';
import { creatorOf } from './creator.js';
import { platformOfKey } from './platform-of-key.js';
import type { RunPlace } from './run-places.js';
import type { ScheduleSettings } from './schedule-settings.js';
import { formatInZone, isTimeZone, parseWhen, WhenError } from './schedule-time.js';

/** The longest scheduled question, in characters. */
export const MAX_QUESTION_CHARS = 2_000;

/** A schedule that cannot be made or changed, with the one sentence to show the person. */
export class ScheduleError extends Error {}

/** What someone asks to schedule. */
export interface ScheduleRequest {
  /** An ISO time, `in 2 hours`, or a cron expression. */
  when?: string | undefined;
  /** A cron expression, for a recurring question. */
  repeat?: string | undefined;
  question: string;
  /** IANA zone `when` and `repeat` are read in; DEFAULT_TIMEZONE when unset. */
  timezone?: string | undefined;
}

/** Making, listing and cancelling schedules, with who may do what. */
export interface ScheduleService {
  /** Adds a schedule for `place`; throws a ScheduleError saying why not. */
  add(place: RunPlace, key: string, request: ScheduleRequest): Promise<Schedule>;
  /** The confirmation: the exact next time in the schedule's zone and how to cancel it. */
  confirmation(schedule: Schedule): string;
  /** This conversation's schedules, and the asker's own elsewhere, as text. */
  list(asker: Asker, key: string): Promise<string>;
  /** Cancels a schedule its creator (or an admin) names; the reply as text. */
  cancel(asker: Asker, id: string): Promise<string>;
}

/** What the service needs. */
export interface ScheduleServiceDeps {
  store: ScheduleStore;
  settings: ScheduleSettings;
  isAdmin(asker: Asker): Promise<boolean>;
  /** Whether the access lists let the asker ask in the conversation at all. */
  allowed(asker: Asker, key: string): Promise<boolean>;
  /** Whether this bot can deliver runs on a platform (`discord`, `slack`, …). */
  delivers(platform: string): boolean;
  now?: (() => number) | undefined;
}

const ID_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** A short id people can type: eight letters and digits without look-alikes. */
export function newScheduleId(): string {
  return [...randomBytes(8)].map((b) => ID_ALPHABET[b % ID_ALPHABET.length]).join('');
}

/** Creates the schedule service. */
export function createScheduleService(deps: ScheduleServiceDeps): ScheduleService {
  const { store, settings } = deps;
  const now = deps.now ?? Date.now;
  const defaultZone = settings.DEFAULT_TIMEZONE || Intl.DateTimeFormat().resolvedOptions().timeZone;
  const cancelHint = (id: string) => `Cancel it with /schedule cancel ${id}.`;
  /** Why an addition was refused: the person's own schedules, or (for a browser) those made from their address. */
  const fullMessage = async (asker: Asker) => {
    const max = settings.SCHEDULES_PER_PERSON;
    const most = `${max} ${max === 1 ? 'schedule' : 'schedules'}`;
    const own = (await store.schedules({ creator: asker.principal })).length;
    if (own >= max || !asker.origin) {
      return `You already have ${most}, the most allowed; cancel one first (/schedule list).`;
    }
    return `Your network address already has ${most}, the most one person may have; cancel one (/schedule list in the browser that made it) before adding another.`;
  };

  return {
    async add(place, key, request) {
      const question = request.question.trim();
      if (!question) throw new ScheduleError('Say what to ask when it runs.');
      if (question.length > MAX_QUESTION_CHARS) {
        throw new ScheduleError(`The question is too long; keep it under ${MAX_QUESTION_CHARS} characters.`);
      }
      const zone = request.timezone?.trim() || defaultZone;
      if (!isTimeZone(zone)) {
        throw new ScheduleError(
          `Unknown time zone "${zone}"; use an IANA name such as "Europe/Paris" or "UTC".`,
        );
      }
      if (!deps.delivers(platformOfKey(key))) {
        throw new ScheduleError('Scheduled questions cannot be delivered here.');
      }
      let when: ReturnType<typeof parseWhen>;
      try {
        when = parseWhen(request, zone, now());
      } catch (err) {
        if (err instanceof WhenError) throw new ScheduleError(err.message);
        throw err;
      }
      const { asker } = place;
      if (!(await deps.allowed(asker, key))) throw new ScheduleError('You can’t use this bot here.');
      if (when.cron !== null && !asker.dm && !settings.SCHEDULE_ANYONE && !(await deps.isAdmin(asker))) {
        throw new ScheduleError(
          'Only admins can schedule recurring questions in a channel; a one-off reminder is fine, or ask in a DM.',
        );
      }
      const schedule: Schedule = {
        id: newScheduleId(),
        key,
        settingsKey: place.settingsKey,
        creator: await creatorOf(asker, place.author),
        question,
        cron: when.cron,
        timezone: zone,
        nextAt: when.at,
        paused: false,
        createdAt: now(),
      };
      if (!(await store.addSchedule(schedule, settings.SCHEDULES_PER_PERSON))) {
        throw new ScheduleError(await fullMessage(asker));
      }
      return schedule;
    },
    confirmation(s) {
      const at = formatInZone(s.nextAt, s.timezone);
      const what = s.cron
        ? `Scheduled "${s.question}" on "${s.cron}"; it runs first on ${at}`
        : `I will remind you "${s.question}" on ${at}`;
      return `${what} (id ${s.id}). ${cancelHint(s.id)}`;
    },
    async list(asker, key) {
      const here = await store.schedules({ key });
      const mine = (await store.schedules({ creator: asker.principal })).filter((s) => s.key !== key);
      if (here.length === 0 && mine.length === 0) {
        return 'No scheduled questions here or of yours. Add one with /schedule add "<cron or time>" <question>.';
      }
      const lines: string[] = [];
      if (here.length > 0) lines.push('Scheduled here:', ...here.map(line));
      if (mine.length > 0) lines.push('Yours elsewhere:', ...mine.map(line));
      return lines.join('\n');
    },
    async cancel(asker, id) {
      const schedule = id ? await store.schedule(id.trim().toLowerCase()) : undefined;
      if (!schedule) return `There is no schedule "${id}"; /schedule list shows their ids.`;
      if (schedule.creator.principal !== asker.principal && !(await deps.isAdmin(asker))) {
        return 'Only the person who made a schedule, or an admin, can cancel it.';
      }
      await store.deleteSchedule(schedule.id);
      return `Cancelled ${schedule.id}: "${schedule.question}".`;
    },
  };
}

function line(s: Schedule): string {
  const when = s.cron
    ? `"${s.cron}", next ${formatInZone(s.nextAt, s.timezone)}`
    : formatInZone(s.nextAt, s.timezone);
  const state = s.paused ? ' (paused: its creator may no longer ask there)' : '';
  return `• ${s.id}: "${s.question}" by ${creatorName(s)}, ${when}${state}`;
}

/** The creator's name; a web browser's ID, which older web schedules kept as the name, reads as `browser 1a2b`. */
function creatorName(s: Schedule): string {
  const { creator } = s;
  return creator.platform === 'web' && creator.name === creator.userId
    ? principalLabel(creator.principal)
    : creator.name;
}
