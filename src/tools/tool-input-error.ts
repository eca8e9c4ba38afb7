import { ToolrunError } from '../errors.js';

/** A tool rejected its input for a reason only it can know (an unknown timezone, an unsafe expression). */
export class ToolInputError extends ToolrunError {
  constructor(message: string) {
    super('tool_error', message);
    this.name = 'ToolInputError';
  }
}
