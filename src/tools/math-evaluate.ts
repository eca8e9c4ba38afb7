/**
 * math_eval's evaluation, run inside the tool worker (see worker/math-worker.ts). mathjs is imported
 * by name: `create` and `all` only, so the bundle leaves out mathjs' default instance, whose eager
 * construction of ~1,100 functions costs ~200 ms.
 */
import { all, create, type MathJsInstance } from 'mathjs';
import { MAX_EXPRESSION_LENGTH } from './math-eval.js';
import { ToolInputError } from './tool-input-error.js';

const MAX_RESULT_ELEMENTS = 100_000;

// Functions that would let an expression reach outside arithmetic: define units or functions
// globally, evaluate or parse nested code, or do unbounded symbolic work (mathjs' security guide).
const DISABLED_FUNCTIONS = [
  'import',
  'createUnit',
  'reviver',
  'replacer',
  'evaluate',
  'parse',
  'compile',
  'parser',
  'resolve',
  'chain',
  'simplify',
  'simplifyConstant',
  'simplifyCore',
  'derivative',
  'rationalize',
  'leafCount',
  'symbolicEqual',
  'config',
];

interface SafeMath {
  math: MathJsInstance;
  /** The evaluate captured before it was disabled inside expressions. */
  evaluate: (expression: string, scope: object) => unknown;
}

let safeMath: SafeMath | undefined;

/** A mathjs instance with the dangerous functions replaced, inside expressions, by ones that throw. */
export function loadSafeMath(): SafeMath {
  if (safeMath) return safeMath;
  const math = create(all!);
  const evaluate = math.evaluate.bind(math) as SafeMath['evaluate'];
  const disabled = Object.fromEntries(
    DISABLED_FUNCTIONS.map((name) => [
      name,
      () => {
        throw new ToolInputError(`Function ${name} is not allowed in math_eval`);
      },
    ]),
  );
  math.import(disabled, { override: true });
  safeMath = { math, evaluate };
  return safeMath;
}

/** Evaluates one expression and returns `{result}` with a JSON-friendly value (seed 004). */
export async function mathEval(args: { expression: string }): Promise<{ result: unknown }> {
  const expression = args.expression;
  if (typeof expression !== 'string' || expression.trim() === '') throw new ToolInputError('expression is empty; give one like "2+2"');
  if (expression.length > MAX_EXPRESSION_LENGTH) {
    throw new ToolInputError(`expression is too long (${expression.length} characters; the limit is ${MAX_EXPRESSION_LENGTH})`);
  }
  const { math, evaluate } = loadSafeMath();
  let value: unknown;
  try {
    value = evaluate(expression, {});
  } catch (error) {
    if (error instanceof RangeError) throw new ToolInputError(`expression is too large or recurses too deeply to evaluate (${error.message})`);
    throw error instanceof ToolInputError ? error : new ToolInputError(`cannot evaluate '${shorten(expression)}': ${(error as Error).message}`);
  }
  return { result: toJsonValue(math, value) };
}

function toJsonValue(math: MathJsInstance, value: unknown): unknown {
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (typeof value === 'string' || typeof value === 'boolean' || value === null || value === undefined) return value ?? null;
  if (typeof value === 'function') throw new ToolInputError('the expression defines a function; call it to get a value, e.g. f(x) = x^2; f(3)');
  const typed = value as { isResultSet?: boolean; entries?: unknown[]; isMatrix?: boolean; size?: () => number[]; toArray?: () => unknown[] };
  if (typed.isResultSet) {
    const last = typed.entries?.at(-1);
    return toJsonValue(math, last);
  }
  if (typed.isMatrix || Array.isArray(value)) {
    const size = typed.isMatrix ? typed.size!() : (math.size(value as number[]) as unknown as number[]);
    const elements = (Array.isArray(size) ? size : [size]).reduce((product: number, n) => product * Number(n), 1);
    if (elements > MAX_RESULT_ELEMENTS) throw new ToolInputError(`result has ${elements} elements; the limit is ${MAX_RESULT_ELEMENTS}`);
    const array = typed.isMatrix ? typed.toArray!() : (value as unknown[]);
    return array.map((item) => toJsonValue(math, item));
  }
  // BigNumber, Fraction, Complex, Unit: mathjs' own notation ("5 cm", "2 + 3i").
  return math.format(value as never, { precision: 14 });
}

function shorten(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
