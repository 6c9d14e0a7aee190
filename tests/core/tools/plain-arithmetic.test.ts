import { all, create } from 'mathjs';
import { describe, expect, it } from 'vitest';
import { evaluatePlainArithmetic, formatLikeMathjs } from '../../../src/core/tools/plain-arithmetic.js';

// The calculator process's own mathjs setup and format (src/core/tools/calculator-child.ts).
const math = create(all!);
const mathjs = (expression: string) =>
  math.format(math.evaluate(expression), { precision: 14, lowerExp: -9, upperExp: 14 });

/** A small seeded generator, so a failure names an expression that can be run again. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

function numberText(next: () => number): string {
  const kind = next();
  if (kind < 0.4) return String(Math.floor(next() * 1000));
  if (kind < 0.6) return String(Math.floor(next() * 1e9));
  if (kind < 0.8) return (next() * 100).toFixed(1 + Math.floor(next() * 4));
  if (kind < 0.9) return `0.${String(Math.floor(next() * 1e6)).padStart(6, '0')}`;
  return String(Math.floor(next() * 1e7) + 1e7);
}

function expressionText(next: () => number, depth = 0): string {
  const parts = [numberText(next)];
  const terms = 1 + Math.floor(next() * 4);
  for (let i = 0; i < terms; i++) {
    const op = ['+', '-', '*', '/'][Math.floor(next() * 4)]!;
    const operand = depth < 3 && next() < 0.25 ? `(${expressionText(next, depth + 1)})` : numberText(next);
    parts.push(op, next() < 0.1 ? `-${operand}` : operand);
  }
  return parts.join(next() < 0.5 ? ' ' : '');
}

describe('plain arithmetic in process', () => {
  it('gives exactly what the calculator’s mathjs gives, on thousands of generated expressions', () => {
    const next = random(19);
    let answered = 0;
    for (let i = 0; i < 5000; i++) {
      const expression = expressionText(next);
      const value = evaluatePlainArithmetic(expression);
      if (value === undefined) continue;
      answered++;
      expect(value, expression).toBe(mathjs(expression));
    }
    // What it declines (results past 1e14, exponent notation) goes to the sandbox; most is answered here.
    expect(answered).toBeGreaterThan(4000);
  });

  it('writes numbers as mathjs does, rounding to 14 significant digits', () => {
    const next = random(7);
    for (let i = 0; i < 5000; i++) {
      const value = (next() - 0.5) * 10 ** Math.floor(next() * 30 - 12);
      const text = formatLikeMathjs(value);
      const expected = math.format(value, { precision: 14, lowerExp: -9, upperExp: 14 });
      if (text === undefined) expect(expected, String(value)).toMatch(/e/);
      else expect(text, String(value)).toBe(expected);
    }
    for (const value of [
      0.1 + 0.2,
      1 / 3,
      2 / 3,
      99999999999999.5,
      9.99999999999995,
      1e-9,
      123456789.12345678,
    ]) {
      expect(formatLikeMathjs(value) ?? 'exp', String(value)).toBe(
        /e/.test(math.format(value, { precision: 14, lowerExp: -9, upperExp: 14 }))
          ? 'exp'
          : math.format(value, { precision: 14, lowerExp: -9, upperExp: 14 }),
      );
    }
  });

  it('leaves everything else to the sandbox', () => {
    for (const expression of [
      'sqrt(2)',
      '2^10',
      '10 % 3',
      '5!',
      '5 km to mile',
      '2 (3 + 4)',
      '(1 + 2)(3 + 4)',
      '2 3',
      '1 / 0',
      '0 / 0',
      '1\n2',
      '1e3 * 2',
      '1.2.3',
      '007 + 1',
      '1 +',
      '(1 + 2',
      '1 + 2)',
      '',
      '   ',
      '123456789 * 987654321',
      `${'('.repeat(100)}1${')'.repeat(100)}`,
    ]) {
      expect(evaluatePlainArithmetic(expression), JSON.stringify(expression)).toBeUndefined();
    }
  });

  it('answers the usual model calls', () => {
    expect(evaluatePlainArithmetic('123 * 456 + 789')).toBe('56877');
    expect(evaluatePlainArithmetic('-(2 + 3) * -4')).toBe('20');
    expect(evaluatePlainArithmetic('7 / 2')).toBe('3.5');
    expect(evaluatePlainArithmetic('0.1 + 0.2')).toBe('0.3');
    expect(evaluatePlainArithmetic('10 / 3')).toBe(mathjs('10 / 3'));
  });
});
