import { isObject } from './server-entry.js';
import { parseHostJson } from './parse-host-json.js';
import { readHostFile } from './read-host-file.js';

/**
 * A host's settings file read for what it says of trust and approvals (not for servers): its object,
 * or undefined when it is missing, unreadable or not an object; the host then goes on without it too.
 */
export function readHostJsonObject(file: string): Record<string, unknown> | undefined {
  const read = readHostFile(file);
  if (!read || 'problem' in read) return undefined;
  const parsed = parseHostJson(read.text);
  return 'value' in parsed && isObject(parsed.value) ? parsed.value : undefined;
}
