import type { ArgsValidator, ToolDefinition, ToolRunner } from '../registry/tool-types.js';
import * as generatedValidators from './builtin-validators.generated.js';
import { echo, echoDefinition } from './echo.js';
import { getCurrentDatetime, getCurrentDatetimeDefinition } from './get-current-datetime.js';
import { mathEvalDefinition } from './math-eval.js';
import type { ToolHosts } from './tool-hosts.js';

export interface BuiltinTool {
  definition: ToolDefinition;
  createRunner(hosts: ToolHosts): ToolRunner;
  warmUp?(hosts: ToolHosts): void;
  /** Precompiled from `definition.parameters` by scripts/generate-validators.js. */
  validator: ArgsValidator;
}

type GeneratedValidator = (typeof generatedValidators)[keyof typeof generatedValidators];

function adaptValidator(validate: GeneratedValidator): ArgsValidator {
  return (value) => (validate(value) ? { valid: true } : { valid: false, errors: validate.errors ?? [] });
}

/** The handlers shipped with toolrun, by handler name (a config tool may reuse one with its own definition). */
export const BUILTIN_TOOLS: Record<string, BuiltinTool> = {
  get_current_datetime: {
    definition: getCurrentDatetimeDefinition,
    createRunner: () => (args) => getCurrentDatetime(args as { timezone?: string }),
    validator: adaptValidator(generatedValidators.get_current_datetime),
  },
  math_eval: {
    definition: mathEvalDefinition,
    // mathjs runs in a worker: heavy to load (most runs never need it), and an expression that
    // allocates gigabytes or loops must be stoppable without taking toolrun down.
    createRunner: (hosts) => (args, context) => hosts.math.run({ kind: 'math', args: args as { expression: string } }, context),
    warmUp: (hosts) => hosts.math.warmUp(),
    validator: adaptValidator(generatedValidators.math_eval),
  },
  echo: {
    definition: echoDefinition,
    createRunner: () => (args) => echo(args),
    validator: adaptValidator(generatedValidators.echo),
  },
};
