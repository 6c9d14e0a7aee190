/** What the calculator process is started with (as JSON in its argv). */
export interface CalculatorChildData {
  /** Absolute path of mathjs's CommonJS entry; `node -e` code cannot resolve this project's packages. */
  mathjsPath: string;
  /** Functions replaced by stubs that throw (the mathjs security recipe). */
  disabled: readonly string[];
  /** Matrices with more elements are described, not printed. */
  maxElements: number;
  /** Longest result text sent back. */
  maxChars: number;
}

/** The calculator process's answer to one expression. */
export type CalculatorReply = { value: string } | { error: string };

/**
 * Functions an expression must not reach: they parse or compile further expressions, change global
 * state (units, config) or revive arbitrary objects. See https://mathjs.org/docs/expressions/security.html.
 */
export const DISABLED_FUNCTIONS = [
  'import',
  'createUnit',
  'reviver',
  'replacer',
  'config',
  'evaluate',
  'parse',
  'compile',
  'parser',
  'resolve',
  'simplify',
  'simplifyConstant',
  'simplifyCore',
  'rationalize',
  'derivative',
  'leafCount',
  'symbolicEqual',
] as const;

/**
 * The calculator process's code, plain CommonJS run with `node -e`. It is JavaScript text because a child
 * does not inherit tsx's or vitest's TypeScript loader, and a `.js` file beside this one would be left
 * out of the `tsc` build; text works under tsx, vitest and compiled `dist/` alike.
 */
export const CALCULATOR_CHILD_SOURCE = `
'use strict';
const data = JSON.parse(process.argv[1]);
// The parent is gone (or gave up on us): nothing left to answer.
process.on('disconnect', () => process.exit(0));
const { create, all } = require(data.mathjsPath);

const math = create(all);
const evaluate = math.evaluate;
const stubs = {};
for (const name of data.disabled) {
  stubs[name] = function () { throw new Error('Function ' + name + ' is disabled'); };
}
math.import(stubs, { override: true });

function describe(value) {
  if (value && value.isResultSet) value = value.entries[value.entries.length - 1];
  if (value === undefined || value === null) return { error: 'The expression has no value.' };
  if (typeof value === 'function') {
    return { error: 'The expression is a function, not a value; call it, e.g. "f(x) = x^2; f(3)".' };
  }
  const finite = typeof value === 'number' ? Number.isFinite(value) : !(value.isBigNumber && !value.isFinite());
  if (!finite) {
    return String(value) === 'NaN'
      ? { error: 'The result is not a number (NaN), as from 0/0 or an undefined operation.' }
      : { error: 'The result is ' + String(value) + ': too large to represent, or a division by zero.' };
  }
  if (Array.isArray(value) || math.isMatrix(value)) {
    const dims = [].concat(math.size(value).valueOf());
    const count = dims.reduce((a, b) => a * b, 1);
    if (count > data.maxElements) {
      return { value: 'a ' + dims.join('×') + ' matrix (' + count + ' elements), too large to show; ' +
        'summarise it with e.g. sum(), max() or size()' };
    }
  }
  const text = math.format(value, { precision: 14, lowerExp: -9, upperExp: 14 });
  return { value: text.length > data.maxChars ? text.slice(0, data.maxChars) + ' …(cut)' : text };
}

process.on('message', (expression) => {
  let reply;
  try {
    reply = describe(evaluate(String(expression), {}));
  } catch (err) {
    reply = { error: err instanceof Error ? err.message : String(err) };
  }
  process.send(reply);
});
process.send({ ready: true });
`;
