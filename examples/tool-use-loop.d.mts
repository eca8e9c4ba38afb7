export function runToolUseLoop(client: unknown, userText: string, options?: { model?: string; maxTurns?: number }): Promise<string>;
