/**
 * toolrun's commands, options and arguments as shell completion needs them (SPEC §17): names,
 * short descriptions, and what kind of word a value or argument is. A plain table, so the completion
 * entry (fast-complete.ts) answers without loading commander and every command's registration;
 * command-table.generated.ts holds it, and a test keeps it equal to the real program.
 */

/** What a word is, so its candidates can be found: a configured server (a remote one: `url`), a tool, a file path… */
export type WordKind = 'server' | 'remote-server' | 'tool' | 'skill' | 'file' | 'host' | 'none';

export interface OptionNode {
  /** `--config`; every option toolrun has is long, some also have a short form. */
  long: string;
  short?: string;
  takesValue: boolean;
  description: string;
  /** A fixed set of values (commander's choices, or a documented list). */
  values?: string[];
  kind?: WordKind;
}

export interface ArgumentNode {
  name: string;
  variadic: boolean;
  kind: WordKind;
  values?: string[];
}

export interface CommandNode {
  name: string;
  description: string;
  options: OptionNode[];
  args: ArgumentNode[];
  commands: CommandNode[];
}
