import { describe, expect, it } from 'vitest';
import { normalizeForSnapshot } from '../../src/testing/snapshots.js';

describe('normalizeForSnapshot: what a snapshot keeps of an answer', () => {
  it('drops _meta anywhere, writes ISO timestamps as <time>, and removes the ignore: JSONPaths (array items too)', () => {
    const answer = {
      _meta: { progressToken: 7 },
      content: [
        { type: 'text', text: 'a', _meta: { id: 'x' } },
        { type: 'text', text: 'b' },
        { type: 'text', text: 'c' },
      ],
      structuredContent: { at: '2026-11-26T01:02:03.456Z', id: 'run-91', kept: 1 },
    };
    expect(normalizeForSnapshot(answer, ['$.structuredContent.id', '$.content[0,2]'])).toEqual({
      content: [{ type: 'text', text: 'b' }],
      structuredContent: { at: '<time>', kept: 1 },
    });
    // The answer itself is left as it was.
    expect(answer.content).toHaveLength(3);
  });
});
