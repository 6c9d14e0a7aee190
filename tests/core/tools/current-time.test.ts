import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { currentTimeTool } from '../../../src/core/tools/current-time.js';
import { type Tool, ToolInputError } from '../../../src/core/tools/define-tool.js';
import { testConfig } from '../../helpers/config.js';

type Input = { timezone?: string };
const makeTool = (env: Record<string, string> = {}) => currentTimeTool(testConfig(env)) as Tool<Input>;
const now = (tool: Tool<Input>, timezone?: string) =>
  tool.execute(timezone === undefined ? {} : { timezone }, { signal: new AbortController().signal });

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2024-05-14T13:04:05Z'));
});
afterEach(() => {
  vi.useRealTimers();
});

describe('current_time', () => {
  it('gives the weekday, date and time in the requested zone', async () => {
    expect(await now(makeTool(), 'Europe/Paris')).toBe(
      'Tuesday, 14 May 2024, 15:04:05 in Europe/Paris (GMT+02:00).',
    );
    expect(await now(makeTool(), 'Pacific/Auckland')).toBe(
      'Wednesday, 15 May 2024, 01:04:05 in Pacific/Auckland (GMT+12:00).',
    );
  });

  it('uses DEFAULT_TIMEZONE when no zone is given', async () => {
    expect(await now(makeTool({ DEFAULT_TIMEZONE: 'Asia/Tokyo' }))).toBe(
      'Tuesday, 14 May 2024, 22:04:05 in Asia/Tokyo (GMT+09:00).',
    );
  });

  it("falls back to the system's zone", async () => {
    const system = Intl.DateTimeFormat().resolvedOptions().timeZone;
    expect(await now(makeTool())).toContain(` in ${system} (`);
  });

  it('accepts any letter case and keeps the name the caller used', async () => {
    expect(await now(makeTool(), 'europe/paris')).toContain(' in Europe/Paris (GMT+02:00)');
    expect(await now(makeTool(), 'Asia/Kolkata')).toBe(
      'Tuesday, 14 May 2024, 18:34:05 in Asia/Kolkata (GMT+05:30).',
    );
  });

  it('names an unknown zone and suggests the expected form', async () => {
    const error = await now(makeTool(), 'Mars/Olympus_Mons').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolInputError);
    expect((error as Error).message).toBe(
      'Unknown time zone "Mars/Olympus_Mons". Use an IANA name such as "Europe/Paris", "America/New_York" or "UTC".',
    );
  });

  it('blames the setting when DEFAULT_TIMEZONE is invalid (start-up refuses it; the tool holds even so)', async () => {
    const tool = currentTimeTool({ DEFAULT_TIMEZONE: 'Central European' }) as Tool<Input>;
    await expect(now(tool)).rejects.toThrow(
      'Unknown time zone "Central European" (the DEFAULT_TIMEZONE setting).',
    );
  });
});
