import { z } from 'zod';
import { createMathPool } from './calculator-pool.js';
import type { MathSandbox } from './calculator-sandbox.js';
import { defineTool, type ToolFactory, ToolInputError } from './define-tool.js';
import { evaluatePlainArithmetic } from './plain-arithmetic.js';

/** Longest expression accepted; real questions need far less, and parsing cost grows with length. */
export const MAX_EXPRESSION_CHARS = 1000;

/** What `calculator` reads from the configuration. */
export interface CalculatorSettings {
  /** Calculator processes; a costly expression holds one of them, not every channel. */
  CALCULATOR_WORKERS: number;
}

// One pool per size for the whole process: every calculator tool shares it.
const pools = new Map<number, MathSandbox>();

/** `calculator`: evaluates a mathjs expression (arithmetic, functions, units, matrices) in a bounded sandbox. */
export const calculatorTool: ToolFactory<CalculatorSettings> = (settings) => {
  const size = settings.CALCULATOR_WORKERS;
  const sandbox = pools.get(size) ?? createMathPool(size);
  pools.set(size, sandbox);
  return defineTool({
    name: 'calculator',
    description:
      'Evaluates a math expression exactly, with mathjs syntax: arithmetic, powers, functions such as sqrt, ' +
      'sin, log, round, factorial; unit conversions ("5 km to mile"); matrices ("det([1, 2; 3, 4])"). ' +
      'Use it for any arithmetic rather than computing in your head.',
    input: z.object({
      expression: z
        .string()
        .trim()
        .min(1)
        .max(MAX_EXPRESSION_CHARS)
        .describe(
          'A mathjs expression, e.g. "123 * 456 + 789", "sqrt(2) ^ 3" or "100 fahrenheit to celsius"',
        ),
    }),
    async execute({ expression }, { signal }) {
      // The schema caps length too; this guards callers that skip validation.
      if (expression.length > MAX_EXPRESSION_CHARS) {
        throw new ToolInputError(
          `The expression is ${expression.length} characters long; the limit is ${MAX_EXPRESSION_CHARS}.`,
        );
      }
      const value = evaluatePlainArithmetic(expression) ?? (await sandbox.evaluate(expression, signal));
      return `${expression.replace(/\s+/g, ' ')} = ${value}`;
    },
  });
};
