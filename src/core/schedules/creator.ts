import type { Asker } from '../governance/asker.js';
import type { ScheduleCreator } from '../ports/schedule-store.js';

/** What is kept of the person making a schedule; a platform's admin lookup is settled now. */
export async function creatorOf(asker: Asker, name: string): Promise<ScheduleCreator> {
  const admin = await Promise.resolve(asker.platformAdmin).catch(() => false);
  return {
    platform: asker.platform,
    userId: asker.userId,
    principal: asker.principal,
    ...(asker.origin !== undefined ? { origin: asker.origin } : {}),
    ...(asker.channelId !== undefined ? { channelId: asker.channelId } : {}),
    dm: asker.dm,
    ...(asker.roles ? { roles: [...asker.roles] } : {}),
    ...(admin === true ? { platformAdmin: true } : {}),
    ...(asker.platformGated ? { platformGated: true } : {}),
    name,
  };
}

/** The asker as it was kept, rights and all: a run taken over after a restart goes on as who asked it. */
export function askerOf(creator: ScheduleCreator): Asker {
  return {
    platform: creator.platform,
    userId: creator.userId,
    principal: creator.principal,
    channelId: creator.channelId,
    dm: creator.dm,
    roles: creator.roles,
    platformAdmin: creator.platformAdmin ?? false,
    platformGated: creator.platformGated,
  };
}
