import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ToolIndex } from '../../src/cache/tool-index.js';
import { loadConfig } from '../../src/config/load-config.js';
import { tempDir, writeTempConfig } from '../helpers/temp-config.js';

// Issue #19 item 13: an entry is believed only while nothing says it may be stale.
describe('ToolIndex', () => {
  afterEach(() => vi.useRealTimers());

  const setup = async () => {
    const dir = tempDir();
    const [s1, s2] = [join(dir, 's1.js'), join(dir, 's2.js')];
    writeFileSync(s1, '// s1');
    writeFileSync(s2, '// s2');
    const config = await loadConfig({ configPath: writeTempConfig({ mcpServers: { s1: { command: 'node', args: [s1] }, s2: { command: 'node', args: [s2] } } }), env: {} });
    const env = { XDG_CACHE_HOME: tempDir() };
    const index = () => new ToolIndex(config, env);
    const file = join(env.XDG_CACHE_HOME, 'toolrun', 'tool-index.json');
    index().record([
      { name: 's1', tools: ['x'] },
      { name: 's2', tools: ['y'] },
    ]);
    return { s2, index, file };
  };

  it('points a tool to the server that has it', async () => {
    const { index } = await setup();
    expect(index().serversFor('x')).toEqual(['s1']);
  });

  it('an edited server script makes its entry unknown (started again)', async () => {
    const { s2, index } = await setup();
    writeFileSync(s2, '// s2, edited: now offers x too');
    expect(index().serversFor('x')).toEqual(['s1', 's2']);
  });

  it('an entry more than a day old is unknown; one refreshed by use is not', async () => {
    const { index } = await setup();
    vi.useFakeTimers({ now: Date.now() + 23 * 3600_000, toFake: ['Date'] });
    expect(index().serversFor('x')).toEqual(['s1']);
    // s1 was started and listed again (same tools): its entry is refreshed, s2's is not.
    index().record([{ name: 's1', tools: ['x'] }]);
    vi.setSystemTime(Date.now() + 2 * 3600_000);
    expect(index().serversFor('y')).toEqual(['s2']);
    expect(index().serversFor('x')).toEqual(['s1', 's2']);
  });

  it('remembers the era each server spoke, signed with its entry: an era written in by hand is not believed', async () => {
    const { index, file } = await setup();
    expect(index().knownEra('s1')).toBeUndefined();
    index().record([
      { name: 's1', tools: ['x'], era: 'legacy' },
      { name: 's2', tools: ['y'], era: 'modern' },
    ]);
    expect([index().knownEra('s1'), index().knownEra('s2')]).toEqual(['legacy', 'modern']);
    // Listed again without an era (a holder's connection): the era known stays.
    index().record([{ name: 's1', tools: ['x', 'z'] }]);
    expect(index().knownEra('s1')).toBe('legacy');
    expect(index().serversFor('z')).toEqual(['s1']);
    // The server changed era: the entry follows.
    index().record([{ name: 's1', tools: ['x', 'z'], era: 'modern' }]);
    expect(index().knownEra('s1')).toBe('modern');
    // An era edited into the file: the entry no longer verifies, so neither its era nor its tools are believed.
    const data = JSON.parse(readFileSync(file, 'utf8'));
    for (const entry of Object.values(data.servers) as Array<{ era?: string }>) entry.era = entry.era === 'modern' ? 'legacy' : 'modern';
    writeFileSync(file, JSON.stringify(data));
    expect([index().knownEra('s1'), index().knownEra('s2')]).toEqual([undefined, undefined]);
    expect(index().serversFor('x')).toEqual(['s1', 's2']);
  });

  it('a record keeps what another toolrun wrote after this one read the index', async () => {
    const { index } = await setup();
    const first = index();
    expect(first.knownEra('s1')).toBeUndefined();
    // While `first` connects, another command records s2.
    index().record([{ name: 's2', tools: ['y', 'w'], era: 'modern' }]);
    first.record([{ name: 's1', tools: ['x'], era: 'legacy' }]);
    expect([index().knownEra('s1'), index().knownEra('s2')]).toEqual(['legacy', 'modern']);
    expect(index().serversFor('w')).toEqual(['s2']);
  });

  it('an entry written before eras were kept still verifies, with no era known', async () => {
    const { index, file } = await setup();
    // setup() recorded both servers without an era, as toolrun did before it kept them.
    expect(JSON.stringify(JSON.parse(readFileSync(file, 'utf8')))).not.toContain('era');
    expect(index().serversFor('x')).toEqual(['s1']);
    expect(index().knownEra('s1')).toBeUndefined();
  });
});
