/**
 * math_eval's evaluation, run inside the tool worker (see worker/math-worker.ts). mathjs is imported
 * by name: `create` and `all` only, so the bundle leaves out mathjs' default instance, whose eager
 * construction of ~1,100 functions costs ~200 ms.
 */
import { all, create, type MathJsInstance } from 'mathjs';
import { MAX_EXPRESSION_LENGTH } from './math-eval.js';
import { ToolInputError } from './tool-input-error.js';

const MAX_RESULT_ELEMENTS = 100_000;

/**
 * The most elements one range or sized matrix may have inside an expression (80 MB of numbers).
 * The worker's heap limit ends an expression that grows its data step by step (ones(1e5, 1e5)), but
 * not one that asks for a single huge array: V8 grows `1:1e9`'s array in one allocation, past the
 * ~16 MB of slack Node's heap-limit callback gives a worker, and that is a fatal error of the whole
 * process, not of the thread (node/src/node_worker.cc, Worker::NearHeapLimit). So these are counted
 * before mathjs builds them.
 */
export const MAX_BUILT_ELEMENTS = 10_000_000;

/** mathjs functions that build an array from a size: where that size is among their arguments. */
const SIZED_FUNCTIONS: Record<string, (args: unknown[]) => number> = {
  range: rangeLength,
  zeros: (args) => sizeProduct(args),
  ones: (args) => sizeProduct(args),
  identity: (args) => {
    const size = sizeProduct(args);
    return args.length === 1 && !isList(args[0]) ? size * size : size;
  },
  random: (args) => (isList(args[0]) ? sizeProduct(args.slice(0, 1)) : 0),
  randomInt: (args) => (isList(args[0]) ? sizeProduct(args.slice(0, 1)) : 0),
  resize: (args) => sizeProduct(args.slice(1, 2)),
  matrixFromFunction: (args) => sizeProduct(args.slice(0, 1)),
};

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
  const sized = Object.fromEntries(
    Object.entries(SIZED_FUNCTIONS).map(([name, count]) => {
      const original = (math as unknown as Record<string, (...args: unknown[]) => unknown>)[name]!;
      return [
        name,
        (...args: unknown[]) => {
          const elements = count(args);
          if (elements > MAX_BUILT_ELEMENTS)
            throw new ToolInputError(`${name} would build ${formatCount(elements)} elements: too large for math_eval (the limit is ${formatCount(MAX_BUILT_ELEMENTS)})`);
          return original(...args);
        },
      ];
    }),
  );
  math.import({ ...disabled, ...sized }, { override: true });
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

/** How many numbers `range(start, end, step)` or `range("start:step:end")` makes; NaN (not counted) for units. */
function rangeLength(args: unknown[]): number {
  let [start, end, step] = args.map(Number);
  if (typeof args[0] === 'string') {
    const parts = args[0].split(':').map(Number);
    [start, end, step] = parts.length === 3 ? [parts[0], parts[2], parts[1]] : [parts[0], parts[1], 1];
  }
  step = args.length >= 3 || typeof args[0] === 'string' ? step : 1;
  if (!step) return 0; // mathjs refuses a zero step itself
  return Math.floor(Math.abs((end! - start!) / step!)) + 1;
}

/** The product of a size given as numbers (zeros(3, 4)), an array or a matrix (zeros([3, 4])). */
function sizeProduct(args: unknown[]): number {
  const numbers: number[] = [];
  for (const arg of args) {
    if (isList(arg)) numbers.push(...toList(arg).map(Number));
    else if (typeof arg !== 'string') numbers.push(Number(arg)); // a string is a format ('dense', 'sparse')
  }
  return numbers.reduce((product, n) => product * Math.max(0, n), 1);
}

function isList(value: unknown): boolean {
  return Array.isArray(value) || (value as { isMatrix?: boolean } | null)?.isMatrix === true;
}

function toList(value: unknown): unknown[] {
  const list = Array.isArray(value) ? value : (value as { toArray(): unknown[] }).toArray();
  return list.flat(Infinity);
}

function formatCount(count: number): string {
  return count >= 1e15 || !Number.isFinite(count) ? String(count) : count.toLocaleString('en-US');
}

function shorten(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
