/**
 * The one place the service reaches into zxcvbn-ts (functions/domain/evaluation/estimate/zxcvbn-adapter.ts):
 * these fail when the pinned version's options stop having the shape the adapter sets, or stop being what
 * its matchers read, which a version bump could do without any type error (the cast hides it).
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { optionsOf, zxcvbnWithDictionaries } from '../../functions/domain/evaluation/estimate/zxcvbn-adapter';

const PROBE = 'qzvkwpxjhb';

describe("zxcvbn-ts's internals, as the adapter uses them", () => {
  it('the version is pinned exactly, and the installed one is that version', () => {
    const root = path.join(__dirname, '..', '..');
    const pinned = (
      JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }
    ).dependencies['@zxcvbn-ts/core']!;
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
    const installed = (
      JSON.parse(readFileSync(path.join(root, 'node_modules', '@zxcvbn-ts', 'core', 'package.json'), 'utf8')) as {
        version: string;
      }
    ).version;
    expect(installed).toBe(pinned);
  });

  it('a factory keeps its ranked dictionaries and their longest words on its options', () => {
    const options = optionsOf(new ZxcvbnFactory());
    expect(typeof options.rankedDictionaries).toBe('object');
    expect(typeof options.rankedDictionariesMaxWordSize).toBe('object');
  });

  it('a dictionary set on the options is the one a check matches against, with its rank', () => {
    const zxcvbn = zxcvbnWithDictionaries();
    expect(zxcvbn.check(PROBE).sequence.map((match) => match.pattern)).not.toContain('dictionary');
    const options = optionsOf(zxcvbn);
    options.rankedDictionaries['adapter-probe'] = { [PROBE]: 2 };
    options.rankedDictionariesMaxWordSize['adapter-probe'] = PROBE.length;
    const [match] = zxcvbn.check(PROBE).sequence;
    expect(match).toMatchObject({
      pattern: 'dictionary',
      dictionaryName: 'adapter-probe',
      rank: 2,
      matchedWord: PROBE,
    });
  });

  it('refuses a factory whose options lack that shape, at construction rather than on a check', () => {
    expect(() => optionsOf({} as ZxcvbnFactory)).toThrow(/zxcvbn-adapter\.ts/);
    expect(() => optionsOf({ options: { rankedDictionaries: {} } } as unknown as ZxcvbnFactory)).toThrow(
      /rankedDictionariesMaxWordSize/,
    );
  });
});
