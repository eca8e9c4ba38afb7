import { readFileSync } from 'node:fs';

/** toolrun's version, from package.json (one folder above both src/ and dist/). */
export function readVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: string };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}
