/**
 * One line for a value that failed the MCP SDK's (Zod) schema, naming the field: `content: expected
 * array, received string`, instead of the ~120-line issue dump Zod puts in its message (SPEC §8).
 */
export function describeSchemaIssues(error: unknown): string | undefined {
  const issues = (error as { issues?: unknown })?.issues;
  if (!Array.isArray(issues) || issues.length === 0) return undefined;
  const first = deepestIssue(issues[0] as Issue);
  const path = formatPath(first.path ?? []);
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more problem${issues.length > 2 ? 's' : ''})` : '';
  // Zod 4 starts most messages with "Invalid input: ", which says nothing the field name does not.
  const message = (first.message ?? 'invalid').replace(/^Invalid input: /, '');
  return `${path ? `${path}: ` : ''}${message}${more}`;
}

/** True for the SDK's schema failures (a ZodError), which must never reach the user as a dump. */
export function isSchemaError(error: unknown): boolean {
  return Array.isArray((error as { issues?: unknown })?.issues);
}

interface Issue {
  path?: Array<string | number | symbol>;
  message?: string;
  code?: string;
  /** Zod's union issues: one list of issues per branch tried. */
  errors?: Issue[][];
}

/** For a union (a content item of an unknown type), the branch issue that says the most. */
function deepestIssue(issue: Issue): Issue {
  if (issue.code !== 'invalid_union' || !Array.isArray(issue.errors) || issue.errors.length === 0) return issue;
  // A type tag no branch accepts: say which were possible rather than one branch's complaint.
  return { ...issue, message: issue.message === 'Invalid input' ? 'not any of the allowed shapes' : issue.message };
}

function formatPath(path: Array<string | number | symbol>): string {
  return path.reduce<string>((text, part) => (typeof part === 'number' ? `${text}[${part}]` : `${text}${text ? '.' : ''}${String(part)}`), '');
}
