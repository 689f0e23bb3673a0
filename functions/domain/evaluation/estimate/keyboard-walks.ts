import type { AdjacencyGraph } from '../text/keyboards';

/**
 * Keyboard walks as a walk list counts them (docs/guess-numbers.md#the-rule-model): a walk is read as runs of keys
 * in a straight line on the keyboard (`1qaz`, `@WSX`, `qwer`), and each run is counted by how a walk generator
 * reaches it from the run before it. People repeat a run one key over (`1qaz` then `2wsx`), or come back the
 * other way (`1qaz` then `xsw2`); a walk list tries those first:
 *
 *   - the first run:          KEYS starting keys x DIRECTIONS x RUN_LENGTHS x its shifting
 *   - a parallel run:         same direction and length, starting next to the last run's start: NEIGHBOURS x its shifting
 *   - a run coming back:      the opposite direction, same length, starting next to the last run's end: NEIGHBOURS x its shifting
 *   - either of these cut short (shorter than the last run, `*IK` after `7ujm`): NEIGHBOURS x RUN_LENGTHS x its shifting
 *   - a parallel run one key over the way the last parallel run went (`3edc` after `1qaz`, `2wsx`): the walk list's
 *     next column, 1 (RUN_LENGTHS cut short) x its shifting
 *   - a run turning off:      starting next to the last run's end, any direction and length: NEIGHBOURS x DIRECTIONS x RUN_LENGTHS x its shifting
 *   - any other run:          as the first
 *
 * A run's shifting: all keys shifted or none, or the letters alone (Caps Lock: `XSW2`), 2; else 2 per key, so runs
 * shifted in turn (`1qaz@WSX`) cost no more than runs all unshifted. So `1qaz2wsx3edc4rfv` is 2,256 x 12 x 2 x 2,
 * about 10^5, `5tgb^YHN7ujm*IK` 2,256 x 12 x 2 x 8, about 10^5.6, and four runs chosen freely about 10^13.
 * Pure: the graph is passed in.
 */

const RUN_LENGTHS = 4;
const LETTER = /\p{L}/u;

interface Key {
  /** The key (its unshifted character). */
  readonly key: string;
  readonly shifted: boolean;
}

interface Run {
  readonly start: string;
  readonly end: string;
  /** The direction's index in the graph's neighbour lists; -1 for a run of one key. */
  readonly direction: number;
  readonly length: number;
  readonly shifting: number;
}

export interface KeyboardWalks {
  /** log10 of the guesses of a walk list that reaches the text, or Infinity when it is no walk of this keyboard. */
  guessesLog10(text: string): number;
}

export function keyboardWalks(graph: AdjacencyGraph): KeyboardWalks {
  const keyOf = new Map<string, Key>();
  const neighbours = new Map<string, readonly (string | null)[]>();
  for (const [character, around] of Object.entries(graph)) {
    for (const neighbour of around) {
      if (!neighbour) continue;
      keyOf.set(neighbour[0]!, { key: neighbour[0]!, shifted: false });
      if (neighbour.length > 1) keyOf.set(neighbour[1]!, { key: neighbour[0]!, shifted: true });
    }
    if (!keyOf.has(character)) keyOf.set(character, { key: character, shifted: false });
  }
  for (const [character, around] of Object.entries(graph)) {
    const key = keyOf.get(character)!;
    if (!key.shifted)
      neighbours.set(
        key.key,
        around.map((n) => (n ? n[0]! : null)),
      );
  }
  const keys = neighbours.size;
  const directions = Math.max(...[...neighbours.values()].map((around) => around.length));
  const adjacent = (a: string, b: string) => a === b || (neighbours.get(a)?.includes(b) ?? false);
  const opposite = (direction: number) => (direction + directions / 2) % directions;

  const runsOf = (text: string): Run[] | undefined => {
    const typed = [...text].map((ch) => keyOf.get(ch));
    if (typed.length === 0 || typed.some((key) => key === undefined)) return undefined;
    const runs: Run[] = [];
    let start = 0;
    while (start < typed.length) {
      let end = start + 1;
      let direction = -1;
      if (end < typed.length) {
        direction = neighbours.get(typed[start]!.key)!.indexOf(typed[end]!.key);
        if (direction >= 0)
          while (end < typed.length && neighbours.get(typed[end - 1]!.key)![direction] === typed[end]!.key) end++;
        else direction = -1;
      }
      const run = typed.slice(start, end) as Key[];
      const shifted = run.filter((key) => key.shifted).length;
      // Typed one way: no key shifted, every key, or every letter alone (Caps Lock: `XSW2`).
      const oneWay =
        shifted === 0 || shifted === run.length || run.every((key) => key.shifted === LETTER.test(key.key));
      runs.push({
        start: run[0]!.key,
        end: run[run.length - 1]!.key,
        direction,
        length: run.length,
        shifting: oneWay ? 2 : 2 ** run.length,
      });
      start = end;
    }
    return runs;
  };

  return {
    guessesLog10(text) {
      const runs = runsOf(text);
      if (!runs) return Infinity;
      let log = 0;
      // The neighbour a run starts at, seen from the last run's start (-1: none): a walk list that has stepped one
      // way from a column to the next steps the same way again.
      const steps = runs.map((run, i) => (i < 1 ? -1 : neighbours.get(runs[i - 1]!.start)!.indexOf(run.start)));
      runs.forEach((run, i) => {
        const previous = runs[i - 1];
        const free = keys * (run.direction < 0 ? 1 : directions * RUN_LENGTHS);
        let count = free;
        if (previous && run.direction >= 0 && previous.direction >= 0 && run.length <= previous.length) {
          // Beside the last run, one way or the other: as long (6 neighbours), or cut short (any of the lengths
          // too); one neighbour when it repeats the last parallel step (`3edc` after `1qaz`, `2wsx`).
          const parallel = run.direction === previous.direction && adjacent(previous.start, run.start);
          const beside =
            parallel || (run.direction === opposite(previous.direction) && adjacent(previous.end, run.start));
          const repeated =
            parallel &&
            i >= 2 &&
            steps[i]! >= 0 &&
            steps[i] === steps[i - 1] &&
            runs[i - 2]!.direction === run.direction;
          if (beside) count = (repeated ? 1 : directions) * (run.length === previous.length ? 1 : RUN_LENGTHS);
        }
        if (count === free && previous && adjacent(previous.end, run.start))
          count = Math.min(free, directions * (run.direction < 0 ? 1 : directions * RUN_LENGTHS));
        log += Math.log10(count * run.shifting);
      });
      return log;
    },
  };
}
