import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatCassette, type Cassette } from '../../src/eval/cassette/cassette-files.js';
import { pruneCassettes } from '../../src/eval/cassette/cassette-prune.js';
import { tempDir } from '../helpers/temp-config.js';

// What `--record` removes once it has recorded a whole eval file: only cassettes a recording of the
// same profile wrote before and did not use now; another profile's, hand-written ones and a failed
// case's stay.

function cassette(key: string, profiles?: string[]): Cassette {
  return { key, request: { method: 'POST', path: '/v1/chat/completions', body: { model: key } }, response: { status: 200, headers: {}, body: '{}' }, ...(profiles ? { profiles } : {}) };
}

function folderWith(files: Record<string, Cassette | string>): string {
  const folder = join(tempDir(), 'weather.eval.yaml');
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(folder, path, '..'), { recursive: true });
    writeFileSync(join(folder, path), typeof content === 'string' ? content : formatCassette(content));
  }
  return folder;
}

describe('pruneCassettes', () => {
  it("removes the profile's unused cassettes, keeps the used ones and deletes a case folder left empty", () => {
    const folder = folderWith({ 'paris/a.json': cassette('a', ['m']), 'paris/b.json': cassette('b', ['m']), 'gone-case/c.json': cassette('c', ['m']) });
    const removed = pruneCassettes(folder, 'm', new Map([['paris', new Set(['a'])]]), new Set());
    expect(removed.map((path) => path.slice(folder.length + 1)).sort()).toEqual(['gone-case/c.json', 'paris/b.json']);
    expect(readdirSync(folder)).toEqual(['paris']);
    expect(readdirSync(join(folder, 'paris'))).toEqual(['a.json']);
  });

  it("takes only its own profile off a shared cassette, and leaves another profile's, a hand-written one and other files alone", () => {
    const folder = folderWith({
      'paris/shared.json': cassette('shared', ['m', 'm --as vscode']),
      'paris/other.json': cassette('other', ['n']),
      'paris/by-hand.json': cassette('by-hand'),
      'paris/notes.txt': 'kept',
      'paris/broken.json': '{ not json',
    });
    expect(pruneCassettes(folder, 'm', new Map([['paris', new Set()]]), new Set())).toEqual([]);
    expect(readdirSync(join(folder, 'paris')).sort()).toEqual(['broken.json', 'by-hand.json', 'notes.txt', 'other.json', 'shared.json']);
    expect((JSON.parse(readFileSync(join(folder, 'paris/shared.json'), 'utf8')) as Cassette).profiles).toEqual(['m --as vscode']);
    expect(pruneCassettes(folder, 'm --as vscode', new Map(), new Set())).toEqual([join(folder, 'paris/shared.json')]);
  });

  it('leaves a skipped case (its recording failed) as it was, and does nothing when the folder is absent', () => {
    const folder = folderWith({ 'paris/a.json': cassette('a', ['m']) });
    expect(pruneCassettes(folder, 'm', new Map([['paris', new Set()]]), new Set(['paris']))).toEqual([]);
    expect(existsSync(join(folder, 'paris/a.json'))).toBe(true);
    expect(pruneCassettes(join(folder, 'nowhere'), 'm', new Map(), new Set())).toEqual([]);
  });
});
