/**
 * The keyboards beyond US QWERTY (docs/guess-numbers.md#keyboard-layouts): the QWERTZ, AZERTY and JCUKEN graphs,
 * derived from zxcvbn-ts's QWERTY positions. The derivation rebuilds zxcvbn-ts's QWERTY and QWERTZ graphs key for
 * key, and its AZERTY one but for the two keys that graph has wrong.
 */
import { adjacencyGraphs } from '@zxcvbn-ts/language-common';
import {
  ANSI_KEYS,
  KEYBOARDS,
  LAYOUT_KEYS,
  LAYOUTS,
  layoutGraph,
} from '../../functions/domain/evaluation/text/keyboard-layouts';
import type { AdjacencyGraph } from '../../functions/domain/evaluation/text/keyboards';

const QWERTY = adjacencyGraphs.qwerty as unknown as AdjacencyGraph;

describe('the graphs', () => {
  it("read from zxcvbn-ts's QWERTY positions, the US characters rebuild its QWERTY graph", () => {
    const us = layoutGraph(ANSI_KEYS, [
      '`~ 1! 2@ 3# 4$ 5% 6^ 7& 8* 9( 0) -_ =+',
      'qQ wW eE rR tT yY uU iI oO pP [{ ]} \\|',
      `aA sS dD fF gG hH jJ kK lL ;: '"`,
      'zZ xX cC vV bB nN mM ,< .> /?',
    ]);
    expect(us).toEqual(QWERTY);
  });

  it("QWERTZ is zxcvbn-ts's own QWERTZ graph, key for key", () => {
    expect(LAYOUTS.qwertz).toEqual(adjacencyGraphs.qwertz);
  });

  it("AZERTY is zxcvbn-ts's AZERTY graph but for the two keys it has wrong", () => {
    // zxcvbn-ts types the key right of `p` as `^"` (xkeyboard-config: `^` and `¨`), which also overwrites the
    // entry of `"` (the key of 3), and the key of `=` as `+=` (`=` unshifted, `+` shifted).
    const asZxcvbn = (key: string | null) => (key === '^¨' ? '^"' : key === '=+' ? '+=' : key);
    const ours = Object.fromEntries(
      Object.entries(LAYOUTS.azerty)
        .filter(([character]) => character !== '"' && character !== '¨')
        .map(([character, around]) => [character, around.map(asZxcvbn)]),
    );
    const { '"': _overwritten, ...theirs } = adjacencyGraphs.azerty as unknown as AdjacencyGraph;
    expect(ours).toEqual(theirs);
    expect(LAYOUTS.azerty['"']).toEqual(['é2', null, null, "'4", 'eE', 'zZ']);
  });

  it.each(Object.keys(LAYOUTS) as (keyof typeof LAYOUTS)[])(
    '%s: every key typed, each character on one key, neighbours both ways',
    (layout) => {
      const { keys, rows } = LAYOUT_KEYS[layout];
      expect(rows.map((row) => row.split(' ').length)).toEqual(keys.map((names) => [...names].length));
      const characters = rows.flatMap((row) => row.split(' ')).join('');
      expect(new Set(characters).size).toBe(characters.length);
      const graph = LAYOUTS[layout];
      expect(Object.keys(graph).length).toBe(characters.length);
      for (const key of rows.flatMap((row) => row.split(' ')))
        graph[key[0]!]!.forEach((neighbour, direction) => {
          if (neighbour)
            expect([key, direction, graph[neighbour[0]!]![(direction + 3) % 6]]).toEqual([key, direction, key]);
        });
    },
  );

  it('puts the keys where xkeyboard-config does (a key: left, up-left, up-right, right, down-right, down-left)', () => {
    expect(LAYOUTS.qwertz.z).toEqual(['tT', '6&', '7/', 'uU', 'hH', 'gG']);
    expect(LAYOUTS.qwertz.y).toEqual(['<>', 'aA', 'sS', 'xX', null, null]);
    expect(LAYOUTS.qwertz['ä']).toEqual(['öÖ', 'üÜ', '+*', "#'", null, '-_']);
    expect(LAYOUTS.azerty.a).toEqual([null, '&1', 'é2', 'zZ', 'qQ', null]);
    expect(LAYOUTS.azerty.m).toEqual(['lL', 'pP', '^¨', 'ù%', '!§', ':/']);
    expect(LAYOUTS.azerty['1']).toEqual(['²~', null, null, 'é2', 'aA', null]);
    expect(LAYOUTS.jcuken['ф']).toEqual([null, 'йЙ', 'цЦ', 'ыЫ', 'яЯ', null]);
    expect(LAYOUTS.jcuken['Ж']).toEqual(['дД', 'зЗ', 'хХ', 'эЭ', '.,', 'юЮ']);
    expect(LAYOUTS.jcuken['№']).toEqual(['2"', null, null, '4;', 'уУ', 'цЦ']);
    expect(KEYBOARDS).toEqual([QWERTY, adjacencyGraphs.keypad, LAYOUTS.qwertz, LAYOUTS.azerty, LAYOUTS.jcuken]);
  });
});
