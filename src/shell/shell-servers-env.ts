/**
 * Set on a child toolrun to the shell's servers (a JSON array): its resources and prompts commands
 * default to them, not to every configured server (connected-servers.ts). A file of its own: every
 * command reads it, and shell-child-command.ts would bring node:child_process into every start.
 */
export const SHELL_SERVERS_ENV = 'TOOLRUN_SHELL_SERVERS';
