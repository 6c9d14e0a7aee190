import { describe, expect, it } from 'vitest';
import { numbered } from '../../src/store/numbered-params.js';

describe('numbered', () => {
  it('numbers each name once, in order of first use, and orders the values so', () => {
    const statement = numbered('SELECT * FROM t WHERE a = @a AND (@b IS NULL OR b = @b) AND c = @cName');
    expect(statement.text).toBe('SELECT * FROM t WHERE a = $1 AND ($2 IS NULL OR b = $2) AND c = $3');
    expect(statement.values({ cName: 3, b: null, a: 'x', unused: 9 })).toEqual(['x', null, 3]);
  });

  it('throws on a parameter it was not given', () => {
    expect(() => numbered('SELECT @a, @b').values({ a: 1 })).toThrow('missing parameter @b');
  });
});
