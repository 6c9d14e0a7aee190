import { evaluate } from 'mathjs';

/** Tool name, description and argument every contender gives the model: the same tool everywhere. */
export const CALCULATOR = {
  name: 'calculator',
  description: 'Evaluates a math expression exactly (mathjs syntax), e.g. "123 * 456".',
  argument: 'expression',
  argumentDescription: 'A mathjs expression, e.g. "123 * 456"',
} as const;

/** The calculator work of one call, identical for every contender: mathjs in process, `expr = value`. */
export function calculate(expression: string): string {
  return `${expression} = ${evaluate(expression)}`;
}
