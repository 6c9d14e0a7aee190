import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/errors.js';
import { isPostgresUrl, parsePostgresUrl } from '../../src/store/postgres/postgres-url.js';

const SECRET = 'pa:ss@w/rd s3cret';
const withSecret = `postgres://bot:${encodeURIComponent(SECRET)}@db.internal:6543/thinkthread`;

const problemOf = (url: string): string => {
  try {
    parsePostgresUrl(url);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('expected a ConfigError');
};

describe('parsePostgresUrl', () => {
  it('reads host, port, database, user and a percent-encoded password', () => {
    expect(parsePostgresUrl(withSecret)).toEqual({
      host: 'db.internal',
      port: 6543,
      database: 'thinkthread',
      user: 'bot',
      password: SECRET,
      ssl: false,
      schema: 'public',
      describe: 'Postgres database thinkthread at db.internal:6543',
    });
  });

  it('accepts postgresql:// and defaults the port and the password', () => {
    const target = parsePostgresUrl('postgresql://postgres@127.0.0.1/test');
    expect(target).toMatchObject({ port: 5432, password: undefined, database: 'test' });
    expect(isPostgresUrl('postgresql://x@h/d')).toBe(true);
    expect(isPostgresUrl('sqlite:./x.db')).toBe(false);
  });

  it('honours sslmode like libpq: require encrypts, the verify modes check the certificate', () => {
    expect(parsePostgresUrl('postgres://u@h/d?sslmode=require').ssl).toEqual({ rejectUnauthorized: false });
    expect(parsePostgresUrl('postgres://u@h/d?sslmode=verify-full').ssl).toEqual({
      rejectUnauthorized: true,
    });
    expect(parsePostgresUrl('postgres://u@h/d?sslmode=disable').ssl).toBe(false);
  });

  it('takes a schema, named in the description', () => {
    const target = parsePostgresUrl('postgres://u@h:5432/d?schema=bot_one');
    expect(target.schema).toBe('bot_one');
    expect(target.describe).toBe('Postgres database d at h:5432, schema bot_one');
  });

  it('rejects malformed URLs and parameters, never echoing the password', () => {
    const bad = [
      `postgres://bot:${encodeURIComponent(SECRET)}@db.internal:6543/`,
      `postgres://:${encodeURIComponent(SECRET)}@db.internal/thinkthread`,
      `${withSecret}?sslmode=sometimes`,
      `${withSecret}?schema=Robert%27);DROP`,
      `${withSecret}&application_name=x`.replace('&', '?'),
      `postgres://bot:${encodeURIComponent(SECRET)}@db.internal:99999/thinkthread`,
    ];
    const problems = bad.map(problemOf);
    expect(problems[0]).toMatch(/names no database/);
    expect(problems[1]).toMatch(/names no user/);
    expect(problems[2]).toMatch(/sslmode must be one of disable, require, verify-ca, verify-full/);
    expect(problems[3]).toMatch(/schema must be a lower-case identifier/);
    expect(problems[4]).toMatch(/"application_name" is not supported/);
    expect(problems[5]).toMatch(/not a valid postgres:\/\/ URL/);
    for (const p of problems) {
      expect(p).not.toContain('s3cret');
      expect(p).not.toContain(encodeURIComponent(SECRET));
    }
  });
});
