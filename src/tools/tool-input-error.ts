/** A tool rejected its input for a reason only it can know (an unknown timezone, an unsafe expression). */
export class ToolInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolInputError';
  }
}
