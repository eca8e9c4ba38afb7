import type { ToolDefinition } from '../registry/tool-types.js';
import { echoDefinition } from './echo.js';
import { getCurrentDatetimeDefinition } from './get-current-datetime.js';
import { mathEvalDefinition } from './math-eval.js';

/** The builtin tools' definitions, the input of scripts/generate-validators.js. */
export const BUILTIN_DEFINITIONS: ToolDefinition[] = [getCurrentDatetimeDefinition, mathEvalDefinition, echoDefinition];
