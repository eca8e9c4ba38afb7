import { describe, expect, it } from 'vitest';
import { describeRenaming, normalizeArgs, snakeToCamel } from '../../src/executor/normalize-args.js';

const zwaveMapping = { device_name: 'deviceName', command: 'action' };

describe('parameter normalization (seed 000)', () => {
  it('applies the static mapping, then snake→camel', () => {
    const result = normalizeArgs({ device_name: 'Switch One', command: 'on', new_parameter_name: 1, level: 5 }, new Set(['deviceName', 'action', 'level']), zwaveMapping);
    expect(result.args).toEqual({ deviceName: 'Switch One', action: 'on', newParameterName: 1, level: 5 });
    expect(describeRenaming({ device_name: 'Switch One', command: 'on' }, result.renamed.slice(0, 2))).toBe('{device_name: "Switch One", command: "on"} → {deviceName: "Switch One", action: "on"}');
  });

  it('never converts a name the schema already has', () => {
    const result = normalizeArgs({ device_name: 'x', command: 'on' }, new Set(['device_name', 'command']), zwaveMapping);
    expect(result.args).toEqual({ device_name: 'x', command: 'on' });
    expect(result.renamed).toEqual([]);
  });

  it('keeps an explicit camelCase argument over a converted one', () => {
    expect(normalizeArgs({ device_name: 'a', deviceName: 'b' }, new Set(['deviceName']), undefined).args).toEqual({ device_name: 'a', deviceName: 'b' });
  });

  it('converts names', () => {
    expect(snakeToCamel('new_parameter_name')).toBe('newParameterName');
    expect(snakeToCamel('level')).toBe('level');
    expect(snakeToCamel('a__b')).toBe('aB');
  });
});
