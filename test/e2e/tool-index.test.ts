import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCleanInProcess } from '../helpers/run-in-process.js';
import { fixtureServer, tempDir, writeTempConfig } from '../helpers/temp-config.js';

const lines = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);

// SPEC §12: a plain tool name starts only the server the tool index says offers it.
describe('the tool index cache', () => {
  const setup = () => {
    const cache = tempDir();
    const [a, b] = [join(tempDir(), 'a'), join(tempDir(), 'b')];
    const config = writeTempConfig({
      mcpServers: { a: fixtureServer('pid-file-server.js', { env: { PID_FILE: a } }), b: fixtureServer('pid-file-server.js', { env: { PID_FILE: b } }), zwave: fixtureServer('zwave-server.js') },
    });
    const run = (args: string[]) => runCleanInProcess(['--config', config, ...args], { env: { XDG_CACHE_HOME: cache } });
    return { cache, a, b, config, run, indexFile: join(cache, 'toolrun', 'tool-index.json') };
  };

  it('starts every server the first time, then only the one that has the tool; --no-cache starts all', async () => {
    const { a, b, run } = setup();
    expect((await run(['exec', 'list_zwave_devices'])).exitCode).toBe(0);
    expect([lines(a).length, lines(b).length]).toEqual([1, 1]);
    expect((await run(['exec', 'list_zwave_devices'])).exitCode).toBe(0);
    expect([lines(a).length, lines(b).length]).toEqual([1, 1]);
    // A tool two servers offer starts those two (the later one answers, as with every server started).
    const whoami = await run(['exec', 'whoami']);
    expect(whoami.stdout).toBe(lines(b)[1]);
    expect(await run(['--no-cache', 'exec', 'list_zwave_devices'])).toMatchObject({ exitCode: 0 });
    expect([lines(a).length, lines(b).length]).toEqual([3, 3]);
  });

  it('an edited server entry is unknown again, and a wrong hint falls back to every server', async () => {
    const { a, b, run, config, indexFile } = setup();
    await run(['exec', 'list_zwave_devices']);
    // The index claims the tool is on a pid-file server and not on zwave: wrong, so checked and corrected.
    const index = JSON.parse(readFileSync(indexFile, 'utf8')) as { servers: Record<string, { tools: string[] }> };
    for (const entry of Object.values(index.servers)) entry.tools = entry.tools.includes('whoami') ? [...entry.tools, 'list_zwave_devices'] : ['nothing'];
    writeFileSync(indexFile, JSON.stringify(index));
    const corrected = await run(['exec', 'list_zwave_devices']);
    expect(corrected.exitCode).toBe(0);
    expect(corrected.stdout).toContain('Switch One');
    const fixed = Object.values(JSON.parse(readFileSync(indexFile, 'utf8')).servers as Record<string, { tools: string[] }>);
    expect(fixed.filter((entry) => entry.tools.includes('list_zwave_devices'))).toHaveLength(1);
    const afterFix = [lines(a).length, lines(b).length];
    // Edit a's entry: a is unknown to the index, so it is started along with zwave.
    const edited = JSON.parse(readFileSync(config, 'utf8'));
    edited.mcpServers.a.env.X = '1';
    writeFileSync(config, JSON.stringify(edited));
    await run(['exec', 'list_zwave_devices']);
    expect([lines(a).length, lines(b).length]).toEqual([afterFix[0]! + 1, afterFix[1]]);
  });
});
