import { describe, expect, it } from 'vitest';
import { isDay, nextDay, startOfDay } from '../../src/cli/calendar.js';
import { formatCsv, formatTable } from '../../src/cli/format-table.js';
import { parseUsageArgs, UsageArgsError } from '../../src/cli/usage-args.js';

describe('calendar days', () => {
  it('knows real days from look-alikes', () => {
    expect(isDay('2026-02-28')).toBe(true);
    expect(isDay('2028-02-29')).toBe(true);
    for (const bad of ['2026-02-29', '2026-13-01', '2026-1-01', '26-01-01', '2026-01-01T00:00', '']) {
      expect(isDay(bad)).toBe(false);
    }
  });

  it('steps to the next day across months and years', () => {
    expect(nextDay('2026-02-28')).toBe('2026-03-01');
    expect(nextDay('2026-12-31')).toBe('2027-01-01');
  });

  it('starts a day at local midnight, also around a DST change and off the whole hour', () => {
    expect(startOfDay('2026-01-15', 'UTC')).toBe(Date.parse('2026-01-15T00:00:00Z'));
    expect(startOfDay('2026-03-29', 'Europe/Berlin')).toBe(Date.parse('2026-03-28T23:00:00Z'));
    expect(startOfDay('2026-03-30', 'Europe/Berlin')).toBe(Date.parse('2026-03-29T22:00:00Z'));
    expect(startOfDay('2026-11-01', 'America/New_York')).toBe(Date.parse('2026-11-01T04:00:00Z'));
    expect(startOfDay('2026-11-02', 'America/New_York')).toBe(Date.parse('2026-11-02T05:00:00Z'));
    expect(startOfDay('2026-06-02', 'Asia/Kolkata')).toBe(Date.parse('2026-06-01T18:30:00Z'));
    expect(startOfDay('2026-06-02', 'Pacific/Kiritimati')).toBe(Date.parse('2026-06-01T10:00:00Z'));
  });
});

describe('usage arguments', () => {
  it('defaults to a table by user over the default period', () => {
    expect(parseUsageArgs([])).toEqual({ by: 'user', csv: false, approvals: false, help: false });
  });

  it('reads every option, with a space or an equals sign', () => {
    expect(
      parseUsageArgs(['--since', '2026-01-01', '--until=2026-01-31', '--by=day', '--csv', '--approvals']),
    ).toEqual({
      since: '2026-01-01',
      until: '2026-01-31',
      by: 'day',
      csv: true,
      approvals: true,
      help: false,
    });
    expect(() => parseUsageArgs(['--approvals=yes'])).toThrow(/--approvals takes no value/);
    expect(parseUsageArgs(['--by', 'channel']).by).toBe('channel');
  });

  it('refuses what it does not understand, saying what is wrong', () => {
    const cases: [string[], RegExp][] = [
      [['--by', 'model'], /--by must be user, channel or day/],
      [['--since', '2026-02-30'], /--since must be a day/],
      [['--until'], /--until needs a value/],
      [['--since', '--csv'], /--since needs a value/],
      [['--csv=yes'], /--csv takes no value/],
      [['month'], /unknown argument "month"/],
      [['--since', '2026-02-02', '--until', '2026-02-01'], /--since 2026-02-02 is after --until 2026-02-01/],
    ];
    for (const [argv, message] of cases) {
      expect(() => parseUsageArgs(argv)).toThrow(UsageArgsError);
      expect(() => parseUsageArgs(argv)).toThrow(message);
    }
  });
});

describe('text tables and CSV', () => {
  it('aligns columns, with a rule under the header and above the footer', () => {
    const table = formatTable(
      ['who', 'n'],
      [
        ['alice', '1'],
        ['b', '1,000'],
      ],
      ['left', 'right'],
      ['total', '1,001'],
    );
    expect(table).toBe(
      ['who        n', '-----  -----', 'alice      1', 'b      1,000', '-----  -----', 'total  1,001'].join(
        '\n',
      ),
    );
  });

  it('puts the footer right under the header rule when there are no rows', () => {
    expect(formatTable(['who', 'n'], [], ['left', 'right'], ['total', '0'])).toBe(
      ['who    n', '-----  -', 'total  0'].join('\n'),
    );
  });

  it('quotes CSV fields the RFC 4180 way, with CRLF line ends', () => {
    expect(
      formatCsv([
        ['key', 'n'],
        ['slack:T1:C2', '1'],
        ['a,b', '2'],
        ['say "hi"', '3'],
        ['two\nlines', '4'],
      ]),
    ).toBe('key,n\r\nslack:T1:C2,1\r\n"a,b",2\r\n"say ""hi""",3\r\n"two\nlines",4\r\n');
  });
});
