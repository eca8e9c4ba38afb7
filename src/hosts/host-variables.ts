import { sep } from 'node:path';
import type { HostReadContext } from './host-types.js';

/**
 * How a host expands variables in its entries, rewritten into toolrun's own syntax (`${VAR}`,
 * `${VAR:-default}`, `${env:VAR}`, `$${` for a literal `${`), so toolrun's expander does the rest
 * and still names an unset variable. What only the host can fill in is collected as unresolved.
 */
export type VariableStyle =
  /** Nothing is expanded (Claude Desktop, Cline, Zed, Codex): a `${` stays literal text. */
  | 'literal'
  /**
   * `${VAR}` and `${VAR:-default}` (Claude Code's .mcp.json and ~/.claude.json; `$VAR` is not
   * expanded: code.claude.com/docs/en/mcp, and dev.to/rulestack's test of Claude Code 2.1.278). An
   * unset `${VAR}` reaches the server as text in Claude Code; toolrun names it as an error instead.
   */
  | 'shell'
  /** `${env:VAR}`, `${workspaceFolder}`, `${userHome}`, `${pathSeparator}`, `${input:id}` (VS Code, Cursor, Roo, Windsurf). */
  | 'editor'
  /** `$VAR` and `${VAR}` (Gemini CLI). */
  | 'dollar'
  /** `{env:VAR}`, `{file:path}` (opencode). */
  | 'opencode'
  /** `${{ secrets.NAME }}`, `${{ inputs.NAME }}` (Continue's hub templates). */
  | 'continue';

const REFERENCE = /\$\{([^{}]*)\}/g;

/** One string rewritten for toolrun; host-only references are added to `unresolved`. */
export function rewriteVariables(value: string, style: VariableStyle, context: HostReadContext, unresolved: string[]): string {
  switch (style) {
    case 'literal':
      return escapeLiteral(value);
    case 'shell':
      // Only ${NAME} and ${NAME:-default} are Claude Code's; any other ${…} (${env:X}) stays text.
      return value.replace(REFERENCE, (whole, body: string) => (/^[A-Za-z_][A-Za-z0-9_]*(?::-.*)?$/s.test(body) ? whole : `$${whole}`));
    case 'dollar':
      // $VAR → ${VAR}; an existing ${VAR} is already toolrun's.
      return value.replace(/\$([A-Za-z_][A-Za-z0-9_]*)/g, '$${$1}');
    case 'opencode':
      return escapeLiteral(value).replace(/\{(env|file):([^{}]*)\}/g, (whole, kind: string, name: string) => {
        if (kind === 'file') {
          unresolved.push(whole);
          return whole;
        }
        // opencode gives an unset variable as an empty string.
        return `\${${name.trim()}:-}`;
      });
    case 'continue':
      return value.replace(/\$\{\{([^{}]*)\}\}/g, (whole) => {
        unresolved.push(whole);
        return whole;
      });
    case 'editor':
      return value.replace(REFERENCE, (whole, body: string) => {
        if (body.startsWith('env:')) return whole;
        if (body === 'workspaceFolder') return context.projectDir;
        if (body === 'workspaceFolderBasename') return context.projectDir.split(/[\\/]/).filter(Boolean).pop() ?? '';
        if (body === 'userHome') return context.home;
        if (body === 'pathSeparator' || body === '/') return sep;
        // ${input:id}, ${command:…}, ${config:…}, ${file:…}, …: only the host can fill them in.
        unresolved.push(whole);
        return whole;
      });
  }
}

/** `${` the host leaves as text, written as toolrun's literal `$${` (a function: `$$` in a replacement string is one `$`). */
function escapeLiteral(value: string): string {
  return value.replaceAll('${', () => '$${');
}
