import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { ToolInputError } from './tool-input-error.js';
import { ToolrunError } from '../errors.js';

export class HandlerNotFoundError extends ToolrunError {
  constructor(message: string) {
    super('tool_error', message);
    this.name = 'HandlerNotFoundError';
  }
}

type Handler = (args: Record<string, unknown>) => unknown;
const handlers = new Map<string, Handler>();

/**
 * Finds `handler` exported by the user's ES module (a named export, or a property of the default
 * export). Seed 004: a missing one is "Internal handler '<name>' not found".
 */
export async function loadInternalHandler(modulePath: string, handlerName: string): Promise<Handler> {
  const key = `${modulePath}#${handlerName}`;
  const cached = handlers.get(key);
  if (cached) return cached;
  if (!existsSync(modulePath)) throw new HandlerNotFoundError(`Internal handler '${handlerName}' not found: module ${modulePath} does not exist`);
  let namespace: Record<string, unknown>;
  try {
    namespace = (await import(pathToFileURL(modulePath).href)) as Record<string, unknown>;
  } catch (error) {
    throw new ToolInputError(`Internal tool module ${modulePath} failed to load: ${(error as Error)?.message ?? String(error)}`);
  }
  const fromDefault = (namespace.default as Record<string, unknown> | undefined)?.[handlerName];
  const candidate = namespace[handlerName] ?? fromDefault;
  if (typeof candidate !== 'function') {
    const exported = Object.keys(namespace).filter((name) => typeof namespace[name] === 'function');
    const hint = exported.length > 0 ? ` (it exports: ${exported.join(', ')})` : ' (it exports no functions)';
    throw new HandlerNotFoundError(`Internal handler '${handlerName}' not found in ${modulePath}${hint}`);
  }
  handlers.set(key, candidate as Handler);
  return candidate as Handler;
}

/** Calls an internal handler; a handler that returns undefined almost always forgot its `return`. */
export async function runInternalHandler(modulePath: string, handlerName: string, args: Record<string, unknown>): Promise<unknown> {
  const handler = await loadInternalHandler(modulePath, handlerName);
  const result = await handler(args);
  if (result === undefined) throw new ToolInputError(`Internal handler '${handlerName}' returned undefined; return a value (null when there is nothing to return)`);
  return result;
}
