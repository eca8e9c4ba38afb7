import type { ConformCheck } from '../check-types.js';
import { cancellationHonoured } from './cancellation-honoured.js';
import { capabilitiesHonest } from './capabilities-honest.js';
import { invalidParams } from './invalid-params.js';
import { paginationCursors } from './pagination-cursors.js';
import { ping } from './ping.js';
import { progressMonotonic } from './progress-monotonic.js';
import { promptsGet } from './prompts-get.js';
import { promptsUnknown } from './prompts-unknown.js';
import { resourceTemplates } from './resource-templates.js';
import { resourcesReadable } from './resources-readable.js';
import { resourcesUnknownUri } from './resources-unknown-uri.js';
import { toolCallResults } from './tool-call-results.js';
import { toolInputSchema } from './tool-input-schema.js';
import { toolNames } from './tool-names.js';
import { toolOutputSchema } from './tool-output-schema.js';
import { unknownMethod } from './unknown-method.js';
import { unknownTool } from './unknown-tool.js';

/**
 * The content checks of profile toolrun@1, in the order they run and report. Their ids are a stable
 * contract of the profile: a new check or a changed verdict rule is a new profile version.
 * Calls come after the listings (they use them) and cancellation last (it calls a tool again).
 */
export const CONTENT_CHECKS: readonly ConformCheck[] = [
  capabilitiesHonest,
  unknownMethod,
  ping,
  toolNames,
  toolInputSchema,
  toolOutputSchema,
  unknownTool,
  invalidParams,
  resourcesReadable,
  resourcesUnknownUri,
  resourceTemplates,
  promptsGet,
  promptsUnknown,
  paginationCursors,
  toolCallResults,
  progressMonotonic,
  cancellationHonoured,
];
