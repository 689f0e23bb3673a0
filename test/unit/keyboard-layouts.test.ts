/**
 * The keyboards beyond US QWERTY and the walks typed on them (docs/guess-numbers.md#keyboard-layouts):
 *
 *   - the QWERTZ, AZERTY and JCUKEN graphs, derived from zxcvbn-ts's QWERTY positions: the derivation rebuilds
 *     zxcvbn-ts's QWERTY and QWERTZ graphs key for key, and its AZERTY one but for the two keys that graph has wrong;
 *   - walks of each layout with the affixes people add, at most Weak and not Compliant under policies 1 and 2;
 *   - shifted column walks (`5tgb^YHN7ujm*IK`), counted as a walk list reaches them, below Strong under policy 2;
 *   - controls: random text over each layout's alphabet, and the zigzags generated passwords make, are no walk.
 */
import { adjacencyGraphs } from '@zxcvbn-ts/language-common';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { seededRandom } from '../../bundling/guess-model';
import { STRONG } from '../../functions/domain/compliance-levels';
import { BREACHED_PASSWORDS } from '../../functions/domain/evaluation/estimate/breached-password-list';
import { guessEstimator, PATTERN_FEEDBACK } from '../../functions/domain/evaluation/estimate/guess-estimator';
import type { GuessabilityEstimator } from '../../functions/domain/evaluation/estimate/guessability';
import { keyboardWalks } from '../../functions/domain/evaluation/estimate/keyboard-walks';
import { guessablePattern, isKeyboardWalk } from '../../functions/domain/evaluation/estimate/pattern-caps';
import {
  ANSI_KEYS,
  KEYBOARDS,
  LAYOUT_KEYS,
  LAYOUTS,
  layoutGraph,
} from '../../functions/domain/evaluation/text/keyboard-layouts';
import { adjacencyOf, type AdjacencyGraph } from '../../functions/domain/evaluation/text/keyboards';
import { evaluatePassword } from '../../functions/domain/evaluation/strength-evaluator';
import { seedStrengthPolicy } from '../support/seed-reference';

const POLICIES = [1, 2].map((id) => seedStrengthPolicy(id));
const QWERTY = adjacencyGraphs.qwerty as unknown as AdjacencyGraph;
const KEYBOARD_NAMES = ['US QWERTY', 'keypad', 'QWERTZ', 'AZERTY', 'JCUKEN'];

let shipped: GuessabilityEstimator;
let zxcvbnAlone: GuessabilityEstimator;
beforeAll(() => {
  shipped = guessEstimator();
  zxcvbnAlone = guessEstimator(undefined, false);
});

/** The level under policies 1 and 2, C for Compliant: `4C/4C`. */
const levels = (estimator: GuessabilityEstimator, password: string) =>
  POLICIES.map((policy) => {
    const result = evaluatePassword(policy, password, estimator, BREACHED_PASSWORDS.has(password));
    return `${result.ComplianceLevel}${result.Compliant ? 'C' : ''}`;
  }).join('/');

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

/**
 * [password, zxcvbn-ts alone under policies 1/2, the layout]: walks of each layout with the affixes people add, none
 * in the blocklist; now at most Weak and not Compliant under either policy.
 */
const LAYOUT_WALKS: readonly [string, string, string][] = [
  ['Qwertz2024!', '3C/3C', 'QWERTZ'],
  ['Ysxcvb2024!', '3C/3C', 'QWERTZ'],
  ['Qwertzuiopü1!', '2C/2', 'QWERTZ'],
  ['Asdfghjklö1!', '2C/2', 'QWERTZ'],
  ['Yxcvbnm,2024', '2C/2', 'QWERTZ'],
  ['Azerty123!', '1/1', 'AZERTY'],
  ['Azertyuiop1!', '2C/2', 'AZERTY'],
  ['Wxcvbn2024!', '3C/3C', 'AZERTY'],
  ['Qsdfghjklm1!', '2C/2', 'AZERTY'],
  ['Nbvcxw2023!', '3C/3C', 'AZERTY'],
  ['Йцукен1!', '2C/2', 'JCUKEN'],
  ['Йцукен2024!', '3C/3C', 'JCUKEN'],
  ['Фывапролдж1!', '4C/4C', 'JCUKEN'],
  ['Ячсмитьбю1!', '4C/4C', 'JCUKEN'],
  ['Йцукенгшщз1!', '4C/4C', 'JCUKEN'],
  ['Фывапр2024!', '3C/3C', 'JCUKEN'],
];

describe('walks on QWERTZ, AZERTY and JCUKEN', () => {
  it.each(LAYOUT_WALKS)('%s: zxcvbn-ts alone %s, now at most Weak (%s)', (password, alone, _layout) => {
    expect(levels(zxcvbnAlone, password)).toBe(alone);
    expect(BREACHED_PASSWORDS.has(password)).toBe(false);
    expect(levels(shipped, password)).toBe('1/1');
  });

  it.each(LAYOUT_WALKS)('%s: the walk check finds it (zxcvbn-ts alone %s) on %s alone', (password, _alone, layout) => {
    const words = { has: () => false, maxLength: 0 };
    expect(guessablePattern(password, words, adjacencyOf(KEYBOARDS))).toBe('keyboard');
    const on = KEYBOARDS.filter((graph) => guessablePattern(password, words, adjacencyOf([graph])) === 'keyboard');
    expect(on.map((graph) => KEYBOARD_NAMES[KEYBOARDS.indexOf(graph)])).toEqual([layout]);
  });

  it('a run keeps to one keyboard; a walk turns back on itself in a run of its own', () => {
    const adjacent = adjacencyOf(KEYBOARDS);
    // `rtz` is a QWERTZ run, `za` an AZERTY step: no run of 4.
    expect(isKeyboardWalk('rtzaqs', adjacent)).toBe(false);
    // Two runs of 4, each on one keyboard.
    expect(isKeyboardWalk('ertzaqsd', adjacent)).toBe(true);
    // There and back: `qwert` then `rewq`; `йцукен` then `куцй`.
    expect(isKeyboardWalk('qwertrewq', adjacent)).toBe(true);
    expect(isKeyboardWalk('йцукенкуцй', adjacent)).toBe(true);
  });
});

describe('shifted column walks', () => {
  const walks = KEYBOARDS.map(keyboardWalks);
  const counted = (password: string, keyboard: string) =>
    Math.round(10 ** walks[KEYBOARD_NAMES.indexOf(keyboard)]!.guessesLog10(password));
  const fewest = (password: string) => Math.min(...walks.map((walk) => walk.guessesLog10(password)));

  it('a run cut short beside the last counts 6 neighbours x 4 lengths x its shifting; a longer one is a run anywhere', () => {
    // `1qaz` 2,256; `@WSX` one of 6 neighbours, 12; `3edc` the same step again, 2; `$RF` again, cut short, 4 x 2.
    expect(counted('1qaz@WSX3edc$RF', 'US QWERTY')).toBe(2256 * 12 * 2 * 8);
    expect(counted('1qazxsw', 'US QWERTY')).toBe(2256 * 48);
    expect(counted('zaq1XSW2cde3', 'US QWERTY')).toBe(2256 * 12 * 2);
    // A step other than the last: `1qaz`, `2wsx` one to the right, then `1qaz` back to the left, 12.
    expect(counted('1qaz2wsx1qaz', 'US QWERTY')).toBe(2256 * 12 * 12);
    // `1qa` then `2wsx`, longer: beside it, but no walk list's next column.
    expect(counted('1qa2wsx', 'US QWERTY')).toBe(2256 * 2256);
    expect(counted('1qay"WSX3edc$RF', 'QWERTZ')).toBe(2304 * 12 * 2 * 8);
    expect(counted('1йфя"ЦЫЧ3увс;КА', 'JCUKEN')).toBe(2256 * 12 * 2 * 8);
  });

  it('the worked examples of docs/guess-numbers.md are these counts, on the keyboard that counts fewest', () => {
    const docs = readFileSync(path.join(__dirname, '..', '..', 'docs', 'guess-numbers.md'), 'utf8');
    const section = docs.slice(docs.indexOf('**Shifted column walks**'), docs.indexOf('### Keyboard layouts'));
    const rows = [...section.matchAll(/^\| `([^`]+)` \| ([^|]+) \| [^|]+ \| ([\d,]+) \|$/gm)].map(
      (m) => [m[1]!, m[2]!.trim(), Number(m[3]!.replace(/,/g, ''))] as const,
    );
    expect(rows.map(([password]) => password)).toEqual([
      'qwertz',
      'йцукен',
      '1qazxsw',
      '5tgb^YHN7ujm*IK',
      '&aqw2ZSX"edc4RF',
    ]);
    for (const [password, keyboard, guesses] of rows) {
      expect([password, counted(password, keyboard)]).toEqual([password, guesses]);
      expect([password, Math.round(10 ** fewest(password))]).toEqual([password, guesses]);
    }
  });

  // [password, zxcvbn-ts alone under policies 1/2]: three columns, every other one shifted, and a fourth cut short.
  it.each([
    ['5tgb^YHN7ujm*IK', '4C/4C'],
    ['1qaz@WSX3edc$RF', '4C/4C'],
    ['%TGB6yhn&UJM*IK', '4C/4C'],
    ['4rfv%TGB6yhn&UJ', '4C/4C'],
    ['!QAZ2wsx#EDC4rf', '4C/4C'],
    ['1qay"WSX3edc$RF', '4C/4C'],
    ['&aqw2ZSX"edc4RF', '4C/4C'],
    ['1йфя"ЦЫЧ3увс;КА', '4C/4C'],
  ])('%s: zxcvbn-ts alone %s, now below Strong and not Compliant under policy 2', (password, alone) => {
    expect(levels(zxcvbnAlone, password)).toBe(alone);
    expect(BREACHED_PASSWORDS.has(password)).toBe(false);
    const result = evaluatePassword(POLICIES[1]!, password, shipped);
    expect(result.ComplianceLevel).toBeLessThan(STRONG);
    expect(result.Compliant).toBe(false);
    expect(shipped(password).feedback[0]).toBe(PATTERN_FEEDBACK.keyboard);
  });
});

describe('controls: no walk', () => {
  const adjacent = adjacencyOf(KEYBOARDS);
  const words = { has: () => false, maxLength: 0 };
  const ALPHABETS: Readonly<Record<string, string>> = {
    German: 'abcdefghijklmnopqrstuvwxyzäöüßABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÜ0123456789!"§$%&/()=?+*#-_.,;:<>',
    French: 'abcdefghijklmnopqrstuvwxyzéèàçùABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789&"\'(-_)=+²$£*µ%!§:/;.,?<>',
    Russian: 'абвгдеёжзийклмнопрстуфхцчшщъыьэюяАБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ0123456789!"№;%:?*()-_=+.,\\/',
    ASCII: Array.from({ length: 94 }, (_, i) => String.fromCharCode(33 + i)).join(''),
  };

  it.each(Object.keys(ALPHABETS))('2,000 random passwords of 10 to 16 characters over the %s keys', (alphabet) => {
    const characters = [...ALPHABETS[alphabet]!];
    const random = seededRandom(alphabet.length);
    const walks: string[] = [];
    for (let i = 0; i < 2000; i++) {
      const length = 10 + Math.floor(random() * 7);
      const password = Array.from({ length }, () => characters[Math.floor(random() * characters.length)]).join('');
      if (guessablePattern(password, words, adjacent) !== undefined) walks.push(password);
    }
    expect(walks).toEqual([]);
  });

  it.each([
    // Generated by help-desk policy 10 (two upper-case letters, four lower-case, three digits, two symbols): a
    // zigzag through a run of 4 with a step back, once (`RErdsq`, `AZsqse`: AZERTY) or always (`MNhuhy`) a walk.
    'RErdsq637%@',
    'AZsqse577%@',
    'MNhuhy876@?',
    'ESeeaw22',
  ])('%s is no walk on any keyboard, and keeps its level', (password) => {
    expect(guessablePattern(password, words, adjacent)).toBeUndefined();
    expect(levels(shipped, password)).toBe(levels(zxcvbnAlone, password));
  });

  it('random Cyrillic, German and French passwords keep the level zxcvbn-ts alone gives them', () => {
    for (const password of ['ёжЫ7щФ%цзЮ2ъ', 'Übaß7Kö!qrDw', 'çèR2µ§àPq9!x']) {
      expect(guessablePattern(password, words, adjacent)).toBeUndefined();
      expect(levels(shipped, password)).toBe(levels(zxcvbnAlone, password));
    }
  });
});
