import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './temp-config.js';

// The eval project the cassette and provider tests share: two mock weather tools, and the cases of
// fixtures/eval/model-script.json's "right call" (Paris) and "wrong tool" (Rome) scenarios.

/** A fresh folder whose toolrun.config.json has the mock tools get_weather and get_forecast. */
export function weatherToolsFolder(): string {
  const dir = tempDir();
  const tool = (name: string) => ({
    name,
    description: `${name} for a city`,
    parameters: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } }, required: ['city'] },
    implementation: { type: 'mock', mock_response: { sky: 'sunny' } },
  });
  writeFileSync(join(dir, 'toolrun.config.json'), JSON.stringify({ tools: [tool('get_weather'), tool('get_forecast')] }));
  return dir;
}

/** The two cases: Paris asked as `paris` (the right call), Rome (the scripted model calls the forbidden get_forecast). */
export function weatherCases(paris = 'What is the weather in Paris?') {
  return [
    { name: 'right call', prompt: paris, expect: { calls: [{ tool: 'get_weather', args: { city: 'Paris' } }], maxTurns: 3, answer: 'sunny' } },
    { name: 'wrong tool', prompt: 'What is the weather in Rome?', expect: { calls: [{ tool: 'get_weather' }], forbid: ['get_forecast'], maxTurns: 3 } },
  ];
}
