import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { calculatorTool, MAX_EXPRESSION_CHARS } from '../../../src/core/tools/calculator.js';
import { type Tool, ToolInputError } from '../../../src/core/tools/define-tool.js';

const tool = calculatorTool({ CALCULATOR_WORKERS: 2 }) as Tool<{ expression: string }>;
const calc = (expression: string, signal = new AbortController().signal) =>
  tool.execute({ expression }, { signal });

describe('calculator', () => {
  it('evaluates arithmetic and echoes the expression', async () => {
    expect(await calc('123 * 456 + 789')).toBe('123 * 456 + 789 = 56877');
    expect(await calc('12!')).toBe('12! = 479001600');
    expect(await calc('0.1 + 0.2')).toBe('0.1 + 0.2 = 0.3');
    expect(await calc('sqrt(2) ^ 2')).toBe('sqrt(2) ^ 2 = 2');
  });

  it('handles units, matrices, complex numbers and multi-statement input', async () => {
    expect(await calc('5 km to mile')).toBe('5 km to mile = 3.1068559611867 mile');
    expect(await calc('det([1, 2; 3, 4])')).toBe('det([1, 2; 3, 4]) = -2');
    expect(await calc('[1, 2; 3, 4] * 2')).toBe('[1, 2; 3, 4] * 2 = [[2, 4], [6, 8]]');
    expect(await calc('sqrt(-4)')).toBe('sqrt(-4) = 2i');
    expect(await calc('f(x) = x^2; f(12)')).toBe('f(x) = x^2; f(12) = 144');
  });

  it('explains mistakes instead of failing silently', async () => {
    await expect(calc('1 +')).rejects.toThrow(
      /Could not evaluate the expression: Unexpected end of expression/,
    );
    await expect(calc('y * 2')).rejects.toThrow(/Undefined symbol y/);
    await expect(calc('1 / 0')).rejects.toThrow(/Infinity/);
    await expect(calc('0 / 0')).rejects.toThrow(/NaN/);
    await expect(calc('sin')).rejects.toThrow(/is a function/);
  });

  it.each([
    ['import({ a: 1 })', 'import'],
    ['createUnit("foo")', 'createUnit'],
    ['evaluate("1+1")', 'evaluate'],
    ['parse("x")', 'parse'],
    ['compile("1+1")', 'compile'],
    ['simplify("x + x")', 'simplify'],
  ])('refuses %s', async (expression, name) => {
    const error = await calc(expression).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolInputError);
    expect((error as Error).message).toContain(`Function ${name} is disabled`);
  });

  it('does not expose JavaScript internals', async () => {
    await expect(calc('[1, 2].constructor')).rejects.toThrow(/No access to property "constructor"/);
    await expect(calc('cos.constructor("return process")()')).rejects.toThrow(ToolInputError);
  });

  it('reports overflowing results as errors', async () => {
    await expect(calc('9^9^9^9')).rejects.toThrow(/too large to represent/);
    await expect(calc('factorial(1e6)')).rejects.toThrow(/too large to represent/);
  });

  it.each(['1:1e9', 'ones(1e5, 1e5)', 'zeros(1e5, 1e5)', 'sum(1:1e9)'])(
    'stops %s before it exhausts memory or time, then keeps working',
    async (expression) => {
      const error = await calc(expression).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ToolInputError);
      expect((error as Error).message).toMatch(/too much memory|took longer than/);
      expect(await calc('2 + 2')).toBe('2 + 2 = 4');
    },
  );

  it('describes a big matrix instead of printing it', async () => {
    expect(await calc('ones(200, 200)')).toMatch(/a 200×200 matrix \(40000 elements\), too large to show/);
    expect(await calc('sum(ones(200, 200))')).toBe('sum(ones(200, 200)) = 40000');
  });

  it('refuses an oversized expression without evaluating it', async () => {
    const huge = `1+${'1+'.repeat(50_000)}1`;
    expect(tool.schema.safeParse({ expression: huge }).success).toBe(false);
    await expect(calc(huge)).rejects.toThrow(`the limit is ${MAX_EXPRESSION_CHARS}`);
  });

  it('answers concurrent calls each with its own result', async () => {
    const results = await Promise.all([1, 2, 3, 4, 5].map((n) => calc(`${n} * 11`)));
    expect(results).toEqual(['1 * 11 = 11', '2 * 11 = 22', '3 * 11 = 33', '4 * 11 = 44', '5 * 11 = 55']);
  });

  it('stops a running calculation when the signal aborts', async () => {
    await calc('1 + 1'); // make sure the calculator is up, so the abort hits the evaluation
    const controller = new AbortController();
    const pending = calc('det(random([600, 600]))', controller.signal);
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(await calc('3 * 3')).toBe('3 * 3 = 9');
  });

  it('works when the app runs its TypeScript through tsx', async () => {
    const script =
      "import('./src/core/tools/calculator.ts').then(async ({ calculatorTool }) => {" +
      "  const out = await calculatorTool({ CALCULATOR_WORKERS: 2 }).execute({ expression: '6 * 7' }, { signal: new AbortController().signal });" +
      '  console.log(out);' +
      '});';
    const { stdout } = await promisify(execFile)('node_modules/.bin/tsx', ['-e', script], {
      timeout: 15_000,
    });
    expect(stdout.trim()).toBe('6 * 7 = 42');
  });
});
