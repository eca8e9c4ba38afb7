import { readFileSync } from 'node:fs';
import { bundleFile } from './files/bundle-file.js';

/** toolrun's version, from package.json (one folder above dist/, and above src/ when run from source). */
export function readVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(bundleFile('../package.json'), 'utf8')) as { version?: string };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}
