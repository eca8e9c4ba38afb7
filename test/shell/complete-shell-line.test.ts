import { describe, expect, it } from 'vitest';
import { completeShellLine, type CompletionSource } from '../../src/shell/complete-shell-line.js';

describe('completeShellLine (toolrun shell, Tab)', () => {
  it('never offers a name or value holding a control character: readline would show it as it is (issue #31 item 3)', () => {
    const source: CompletionSource = {
      servers: () => ['ok', 'e\x1b]0;title\x07'],
      tools: () => [
        { server: 'ok', name: 'fine', inputSchema: { properties: { mode: { enum: ['a', 'b\x1b[2J'] }, 'k\ny': {} } } },
        { server: 'ok', name: 'fi\u202ene' },
      ],
    };
    expect(completeShellLine('fi', source)).toEqual([['fine '], 'fi']);
    expect(completeShellLine('doctor ', source)).toEqual([['ok'], '']);
    expect(completeShellLine('fine mode=', source)).toEqual([['mode=a'], 'mode=']);
    expect(completeShellLine('fine ', source)).toEqual([['mode='], '']);
  });

  it('completes the skills command and its subcommands', () => {
    const source: CompletionSource = { servers: () => ['docs'], tools: () => [] };
    expect(completeShellLine('sk', source)).toEqual([['skills '], 'sk']);
    expect(completeShellLine('skills ', source)).toEqual([['--verify', 'get', 'list', 'read'], '']);
    expect(completeShellLine('skills r', source)).toEqual([['read'], 'r']);
  });
});
