import { mkdir } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ToolrunError } from '../errors.js';
import { foreignFolderReason } from '../files/foreign-folder.js';
import { createFileUnderFreeName } from '../files/write-file-safely.js';
import type { SavedItem } from './render-call-result.js';
import { currentCwd } from '../run-environment.js';

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/svg+xml': 'svg',
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/mpeg': 'mp3',
  'audio/ogg': 'ogg',
  'audio/webm': 'webm',
  'application/pdf': 'pdf',
  'application/zip': 'zip',
  'application/octet-stream': 'bin',
};

/**
 * `exec -o DIR`: writes each image, audio and embedded binary resource of a result to DIR (created
 * if missing) as `<tool>-<n>.<ext>`, or under the resource's own file name when its URI has one.
 * Each file is new: a name already there (an earlier run's file, or a link someone planted in a
 * shared folder) is left alone and the next free `name-1.ext`, `name-2.ext`… is used instead.
 */
export async function saveBinaryContent(result: CallToolResult, toolName: string, dir: string): Promise<Map<number, SavedItem>> {
  const saved = new Map<number, SavedItem>();
  const content = Array.isArray(result.content) ? result.content : [];
  // From the running command's folder (the library's `cwd` option), not this process's.
  const folder = resolve(currentCwd(), dir);
  const used = new Set<string>();
  for (const [index, item] of content.entries()) {
    const binary = binaryOf(item);
    if (!binary) continue;
    if (saved.size === 0) {
      await mkdir(folder, { recursive: true }).catch((error: NodeJS.ErrnoException) => {
        throw new ToolrunError('tool_error', `cannot save into ${folder}: ${error.code === 'EEXIST' || error.code === 'ENOTDIR' ? 'it is not a folder' : error.message}`, { cause: error });
      });
      refuseFolderOfAnotherUser(folder);
    }
    let name = binary.fileName ?? `${safeName(toolName)}-${index + 1}.${extensionOf(binary.mimeType)}`;
    if (used.has(name)) name = `${index + 1}-${name}`;
    used.add(name);
    const wanted = join(folder, name);
    const bytes = Buffer.from(binary.base64, 'base64');
    let written: { path: string; taken?: string };
    try {
      written = createFileUnderFreeName(wanted, bytes);
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code === 'EACCES' ? `permission denied in ${folder}` : (error as Error).message;
      throw new ToolrunError('tool_error', `cannot save ${wanted}: ${reason}`, { cause: error });
    }
    saved.set(index, { index, path: written.path, mimeType: binary.mimeType, bytes: bytes.length, nameTaken: written.taken ? { path: wanted, by: written.taken } : undefined });
  }
  return saved;
}

/** Binary data in a content item: image and audio data, a blob resource. */
export function binaryOf(item: CallToolResult['content'][number]): { base64: string; mimeType: string; fileName?: string } | undefined {
  if ((item.type === 'image' || item.type === 'audio') && typeof item.data === 'string') return { base64: item.data, mimeType: item.mimeType ?? 'application/octet-stream' };
  if (item.type === 'resource') {
    const resource = item.resource as { uri?: string; mimeType?: string; blob?: string };
    if (typeof resource.blob !== 'string') return undefined;
    return { base64: resource.blob, mimeType: resource.mimeType ?? 'application/octet-stream', fileName: fileNameOfUri(resource.uri) };
  }
  return undefined;
}

export function extensionOf(mimeType: string): string {
  return EXTENSIONS[mimeType.toLowerCase()] ?? /^[a-z]+\/([a-z0-9]{1,8})$/i.exec(mimeType)?.[1] ?? 'bin';
}

/** A file name from a URI's last path segment, only when it is a plain one (no traversal, no oddities). */
export function fileNameOfUri(uri: string | undefined): string | undefined {
  if (!uri) return undefined;
  let path: string;
  try {
    path = decodeURIComponent(new URL(uri).pathname);
  } catch {
    return undefined;
  }
  const name = basename(path);
  return /^[\w][\w.-]{0,120}\.[a-z0-9]{1,8}$/i.test(name) ? name : undefined;
}

function safeName(name: string): string {
  return name.replace(/[^\w.-]+/g, '_').slice(0, 80) || 'tool';
}

/** A folder of another user (or a link to one) is refused: see foreignFolderReason. */
function refuseFolderOfAnotherUser(folder: string): void {
  const reason = foreignFolderReason(folder);
  if (reason) throw new ToolrunError('tool_error', `cannot save into ${folder}: ${reason}; name a folder of your own`);
}
