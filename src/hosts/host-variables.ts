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
  /**
   * `$VAR`, `${VAR}` and `${VAR:-default}` (Gemini CLI: packages/cli/src/utils/envVarResolver.ts@5411f11,
   * at settings load, from the whole environment): an unset variable stays as written.
   */
  | 'dollar'
  /** Gemini CLI's `env` values, expanded again at spawn (core/src/utils/envExpansion.ts): "Missing variables resolve to an empty string". */
  | 'dollar-env'
  /**
   * VS Code: as `editor`, and an unset `${env:VAR}` is '' ("For `env` we should do the same as a normal shell
   * does - evaluates undefined envs to an empty string #46436": microsoft/vscode
   * src/vs/workbench/services/configurationResolver/common/variableResolver.ts@2eb5c0b).
   */
  | 'vscode'
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
      // `$VAR` unset stays as written: `${VAR:-$VAR}` (a lone `$` is text to toolrun). An unset `${VAR}` is named as an error.
      return value.replace(/\$([A-Za-z_][A-Za-z0-9_]*)/g, (_whole, name: string) => `\${${name}:-$${name}}`);
    case 'dollar-env':
      return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (_whole, braced?: string, bare?: string) => `\${${braced ?? bare}:-}`);
    case 'vscode':
      return rewriteVariables(value, 'editor', context, unresolved).replace(REFERENCE, (whole: string, body: string) => (/^env:[A-Za-z_][A-Za-z0-9_]*$/.test(body) ? `\${${body.slice(4)}:-}` : whole));
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
