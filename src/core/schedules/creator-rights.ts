import type { Asker } from '../governance/asker.js';
import type { Logger } from '../logger.js';
import type { Schedule } from '../ports/schedule-store.js';
import type { PlatformRights, SystemRunFor } from '../ports/system-run-delivery.js';
import { scheduleRun } from './schedule-run.js';

/** The creator as a run sees them now, and whether the platform could say. */
export interface CurrentCreator {
  asker: Asker;
  /** The lookup failed: the asker holds least rights, not necessarily theirs. */
  unknown: boolean;
  /** The platform says they are no longer there. */
  gone: boolean;
}

/** Looks a schedule's creator up again on the platform its runs go to; rejects when the lookup fails. */
export type LookUpCreator = (whom: SystemRunFor) => Promise<PlatformRights>;

/** What a creator is granted when their rights cannot be looked up: nothing beyond a plain member's. */
export const LEAST_RIGHTS: PlatformRights = { platformAdmin: false };

/**
 * The asker a schedule's run is asked as: its creator with today's platform rights. Where the platform
 * cannot look them up (no lookup, or it failed) the stored admin status and roles are dropped; ADMIN_USERS,
 * ALLOW_USERS, BLOCK_USERS and the role lists are then applied to this asker as to any other.
 */
export async function currentAsker(
  schedule: Schedule,
  lookUp: LookUpCreator | undefined,
  logger?: Logger | undefined,
): Promise<CurrentCreator> {
  const { creator } = schedule;
  let rights = LEAST_RIGHTS;
  let unknown = false;
  if (lookUp) {
    try {
      rights = await lookUp(scheduleRun(schedule));
    } catch (err) {
      unknown = true;
      logger?.warn(
        { id: schedule.id, user: creator.principal, err },
        'could not look up a schedule creator’s rights; running it without admin rights or roles',
      );
    }
  }
  const asker: Asker = {
    platform: creator.platform,
    userId: creator.userId,
    principal: creator.principal,
    origin: creator.origin,
    channelId: creator.channelId,
    dm: creator.dm,
    roles: rights.roles,
    platformAdmin: rights.platformAdmin,
    platformGated: creator.platformGated,
    viaSchedule: schedule.id,
  };
  return { asker, unknown, gone: rights.member === false };
}
