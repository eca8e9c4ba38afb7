import type { ToolDefinition } from '../registry/tool-types.js';

export const mathEvalDefinition: ToolDefinition = {
  name: 'math_eval',
  description: "Evaluates a math expression with mathjs, e.g. '2^10 / 4', 'sqrt(2) * pi', '5 cm to inch', 'det([1,2;3,4])'.",
  parameters: {
    type: 'object',
    properties: { expression: { type: 'string', description: 'The expression to evaluate.' } },
    required: ['expression'],
  },
};

export const MAX_EXPRESSION_LENGTH = 10_000;
