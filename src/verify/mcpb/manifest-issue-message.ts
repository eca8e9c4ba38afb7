/**
 * One zod issue from the toolkit's manifest schema, said as one line: the field, what is wrong, the fix.
 * The issue shapes are zod 3's (the toolkit depends on zod ^3.25: its ZodIssue codes).
 */

export interface ManifestIssue {
  code: string;
  path: (string | number)[];
  message: string;
  expected?: unknown;
  received?: unknown;
  /** unrecognized_keys: the keys; check-manifest gives each its own issue, its key last in `path`. */
  keys?: string[];
  options?: unknown[];
}

/** `server.mcp_config.command`, `tools[2].name`; '' for the manifest as a whole. */
export function issueField(path: (string | number)[]): string {
  return path.map((part, index) => (typeof part === 'number' ? `[${part}]` : index === 0 ? part : `.${part}`)).join('');
}

export function describeManifestIssue(issue: ManifestIssue, manifestVersion: string): string {
  const field = issueField(issue.path);
  const where = field === '' ? 'the manifest' : field;
  switch (issue.code) {
    case 'invalid_type':
      if (issue.received === 'undefined') return `${where} is missing: add it (${String(issue.expected)}), it is required in manifest_version ${manifestVersion}`;
      return `${where} is ${String(issue.received)}, should be ${String(issue.expected)}: change its value to a ${String(issue.expected)}`;
    case 'unrecognized_keys':
      return `${where} is not a field of manifest_version ${manifestVersion}: remove it, or set a manifest_version that has it`;
    case 'invalid_enum_value':
      return `${where} is ${JSON.stringify(issue.received)}: use one of ${(issue.options ?? []).map((option) => JSON.stringify(option)).join(', ')}`;
    case 'invalid_literal':
      return `${where} must be ${JSON.stringify(issue.expected)}: set it so`;
    default:
      return `${where}: ${issue.message}: fix it to match manifest_version ${manifestVersion}'s schema`;
  }
}
