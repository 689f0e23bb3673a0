/**
 * The keyboards a walk is read on (docs/guess-numbers.md#keyboard-layouts): zxcvbn-ts's US QWERTY keyboard and
 * numeric keypad, and the German (QWERTZ), French (AZERTY) and Russian (JCUKEN) layouts as adjacency graphs of
 * the same form. The geometry is not typed again: where each key sits is read from zxcvbn-ts's QWERTY graph, and a
 * layout says only which characters each key types, unshifted and shifted, as xkeyboard-config's `de`, `fr` and
 * `ru` layouts define them. A dead key (German `^`, `´` and `` ` ``; French `^` and `¨`) counts as the character it
 * types alone. Built once, at module scope.
 */
import { adjacencyGraphs } from '@zxcvbn-ts/language-common';
import type { AdjacencyGraph } from './keyboards';

type Position = readonly [row: number, column: number];

/**
 * zxcvbn-ts's directions, in the order of its graphs' neighbour lists, as steps of row and column: left, up-left,
 * up-right, right, down-right, down-left. Each row sits half a key to the right of the one above, so the two keys
 * above a key are in its column and the next.
 */
const STEPS: readonly Position[] = [
  [0, -1],
  [-1, 0],
  [-1, 1],
  [0, 1],
  [1, 0],
  [1, -1],
];

/** The keys of a US (ANSI) keyboard, named by what they type unshifted, row by row from the number row down. */
export const ANSI_KEYS: readonly string[] = ['`1234567890-=', 'qwertyuiop[]\\', "asdfghjkl;'", 'zxcvbnm,./'];
/** An ISO keyboard (German, French): the key of `\` ends the home row, and one more key (`•` here) is left of `z`. */
const ISO_KEYS: readonly string[] = ['`1234567890-=', 'qwertyuiop[]', "asdfghjkl;'\\", '•zxcvbnm,./'];

/**
 * Each layout's keys, in the order of its keys' names (ISO_KEYS or ANSI_KEYS): the characters each types
 * unshifted and shifted, as xkeyboard-config 2.35.1's `de`, `fr` and `ru` (its default, `winkeys`) have them,
 * checked key by key through libxkbcommon. The Russian layout's key left of `я` (`/|`, ISO only) is left out.
 */
export const LAYOUT_KEYS = {
  qwertz: {
    keys: ISO_KEYS,
    rows: [
      '^° 1! 2" 3§ 4$ 5% 6& 7/ 8( 9) 0= ß? ´`',
      'qQ wW eE rR tT zZ uU iI oO pP üÜ +*',
      "aA sS dD fF gG hH jJ kK lL öÖ äÄ #'",
      '<> yY xX cC vV bB nN mM ,; .: -_',
    ],
  },
  azerty: {
    keys: ISO_KEYS,
    rows: [
      `²~ &1 é2 "3 '4 (5 -6 è7 _8 ç9 à0 )° =+`,
      'aA zZ eE rR tT yY uU iI oO pP ^¨ $£',
      'qQ sS dD fF gG hH jJ kK lL mM ù% *µ',
      '<> wW xX cC vV bB nN ,? ;. :/ !§',
    ],
  },
  jcuken: {
    keys: ANSI_KEYS,
    rows: [
      'ёЁ 1! 2" 3№ 4; 5% 6: 7? 8* 9( 0) -_ =+',
      'йЙ цЦ уУ кК еЕ нН гГ шШ щЩ зЗ хХ ъЪ \\/',
      'фФ ыЫ вВ аА пП рР оО лЛ дД жЖ эЭ',
      'яЯ чЧ сС мМ иИ тТ ьЬ бБ юЮ .,',
    ],
  },
} as const;

type Layout = keyof typeof LAYOUT_KEYS;

/** Where zxcvbn-ts's QWERTY graph puts each key, named by its unshifted character: read from the graph, `` ` `` at (0, 0). */
function qwertyPositions(): Map<string, Position> {
  const graph = adjacencyGraphs.qwerty as AdjacencyGraph;
  const positions = new Map<string, Position>([['`', [0, 0]]]);
  const queue = ['`'];
  for (let next = 0; next < queue.length; next++) {
    const key = queue[next]!;
    const [row, column] = positions.get(key)!;
    graph[key]!.forEach((neighbour, direction) => {
      const name = neighbour?.[0];
      if (name === undefined || positions.has(name)) return;
      const [down, right] = STEPS[direction]!;
      positions.set(name, [row + down, column + right]);
      queue.push(name);
    });
  }
  return positions;
}

/** A position as one number, for a map's key: a keyboard has fewer than 32 columns. */
const cell = (row: number, column: number) => row * 32 + column;

/**
 * The adjacency graph of a layout: its keys, named row by row in `keys` and typing the characters of `rows`
 * (space-separated, unshifted then shifted), each row placed where the QWERTY graph places the keys of that row it
 * names; the keys it does not name there (an ISO keyboard's) follow on from them.
 */
export function layoutGraph(
  keys: readonly string[],
  rows: readonly string[],
  qwerty = qwertyPositions(),
): AdjacencyGraph {
  const typed = new Map<number, string>();
  const placed: [Position, string][] = [];
  keys.forEach((names, row) => {
    const anchor = [...names].findIndex((name) => qwerty.get(name)?.[0] === row);
    const origin = qwerty.get(names[anchor]!)![1] - anchor;
    rows[row]!.split(' ').forEach((characters, i) => {
      typed.set(cell(row, origin + i), characters);
      placed.push([[row, origin + i], characters]);
    });
  });
  const graph: Record<string, readonly (string | null)[]> = {};
  for (const [[row, column], characters] of placed) {
    const around = STEPS.map(([down, right]) => typed.get(cell(row + down, column + right)) ?? null);
    for (const character of characters) graph[character] = around;
  }
  return graph;
}

/** The three layouts beyond zxcvbn-ts's own graphs. */
const QWERTY_POSITIONS = qwertyPositions();
export const LAYOUTS = Object.fromEntries(
  Object.entries(LAYOUT_KEYS).map(([name, { keys, rows }]) => [name, layoutGraph(keys, rows, QWERTY_POSITIONS)]),
) as Readonly<Record<Layout, AdjacencyGraph>>;

/**
 * Every keyboard a walk may be typed on, each a bit of the Adjacency mask (keyboards.ts): US QWERTY and the
 * numeric keypad (zxcvbn-ts's), QWERTZ, AZERTY and JCUKEN. A walk keeps to one of them.
 */
export const KEYBOARDS: readonly AdjacencyGraph[] = [
  adjacencyGraphs.qwerty as AdjacencyGraph,
  adjacencyGraphs.keypad as AdjacencyGraph,
  LAYOUTS.qwertz,
  LAYOUTS.azerty,
  LAYOUTS.jcuken,
];
