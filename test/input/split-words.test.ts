import { describe, expect, it } from 'vitest';
import { splitCommandWords } from '../../src/input/split-words.js';

describe('splitCommandWords (--sampling-command)', () => {
  it.each([
    ['llm -m gpt-4o', ['llm', '-m', 'gpt-4o']],
    ['  spaced\tout  ', ['spaced', 'out']],
    [`say 'two words' "and \\"three\\" here" it\\'s`, ['say', 'two words', 'and "three" here', "it's"]],
    [`empty '' ""`, ['empty', '', '']],
    [`no $HOME or * or | here`, ['no', '$HOME', 'or', '*', 'or', '|', 'here']],
    [`sh -c 'llm | tee log'`, ['sh', '-c', 'llm | tee log']],
  ])('%s', (text, words) => {
    expect(splitCommandWords(text)).toEqual(words);
  });

  it('says what is wrong with an unclosed quote or an empty command', () => {
    expect(splitCommandWords(`llm 'open`)).toBe('its single quote is never closed');
    expect(splitCommandWords(`llm "open`)).toBe('its double quote is never closed');
    expect(splitCommandWords('   ')).toBe('it is empty');
  });
});
