/**
 * The context matcher's linear scan (scanTerms, functions/domain/evaluation/context/context-terms.ts) against the definition of a
 * match in docs/evaluation.md#evaluation-in-context, written here the slow, obvious way: every term tried at
 * every start, every edit tried at every position. Over a small alphabet of letters and their l33t stand-ins,
 * so that most passwords hold many overlapping matches, both must leave the same rest and find the same terms.
 *
 * Seed: FC_SEED=<n> replays a run (printed on failure); FC_NUM_RUNS overrides the number of cases.
 */
import fc from 'fast-check';
import { canonicalPassword } from '../../functions/domain/evaluation/estimate/breached-passwords';
import {
  contextTerms,
  findTerms,
  MATCH_COMPARISONS_PER_TERM,
  restOf,
  scanTerms,
  userInputTokens,
} from '../../functions/domain/evaluation/context/context-terms';
import { TERM_PLACEHOLDER } from '../../functions/domain/evaluation/estimate/rule-model';
import { assertProperty } from '../support/property';

/**
 * 1,000 cases per property, about a millisecond each, sized for CI (docs/testing.md#property-run-counts): every
 * defect planted below was found within 1,000 in every seed (3,000 before); a fresh seed each run, and
 * FC_RUNS_FACTOR runs deeper. Defects planted, seeds 1 to 5. In the scan along the
 * password: an insertion accepted before the first character failed after 13 to 154 cases; a change's suffix
 * check one short, after 1 to 9; a removal's one long, after 1 to 21. In the direct comparison (the wide
 * alphabet's property): the same insertion, after 20 to 482 (put back again for this count: 153, 385, 20, 24,
 * 482); a change's check one short, after 3 to 42.
 */
const RUNS = 1000;

/** Letters, their stand-ins (4 @ read a, 1 reads i, l reads i), a capital and a separator: ASCII, so NFKC keeps every character. */
const ALPHABET = [...'ab41liA-@'];
const text = (min: number, max: number) =>
  fc.array(fc.constantFrom(...ALPHABET), { minLength: min, maxLength: max }).map((chars) => chars.join(''));

const LETTER = /\p{L}/u;
const unitsOf = (s: string) => [...s].map((ch) => canonicalPassword(ch));
const equal = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);
const without = (a: readonly string[], j: number) => [...a.slice(0, j), ...a.slice(j + 1)];

/** Every [start, end) where the term matches, by the definition. */
function referenceMatches(password: string, term: string): [number, number][] {
  const t = unitsOf(password);
  const p = unitsOf(term);
  const n = t.length;
  const m = p.length;
  const letters = [...password].map((ch) => LETTER.test(ch));
  const termStandIns = [...term].filter((ch) => !LETTER.test(ch)).length;
  const found: [number, number][] = [];
  const add = (start: number, end: number) => {
    const standIns = letters.slice(start, end).filter((isLetter) => !isLetter).length - termStandIns;
    if (2 * standIns <= end - start) found.push([start, end]);
  };
  const reversed = [...p].reverse();
  for (let s = 0; s < n; s++) {
    const window = (length: number) => (s + length <= n ? t.slice(s, s + length) : undefined);
    const same = window(m);
    if (same && equal(same, p)) add(s, s + m);
    else if (m >= 4) {
      if (same && same.filter((u, i) => u !== p[i]).length === 1) add(s, s + m);
      const shorter = window(m - 1);
      if (shorter && p.some((_, j) => equal(without(p, j), shorter))) add(s, s + m - 1);
      const longer = window(m + 1);
      // An insertion before the first character is the match one place later.
      if (longer && longer[0] === p[0] && longer.some((_, j) => j > 0 && equal(without(longer, j), p)))
        add(s, s + m + 1);
    }
    if (same && !equal(reversed, p) && equal(same, reversed)) add(s, s + m);
  }
  return found;
}

/** The password with each run of overlapping matches replaced by the placeholder. */
function referenceRest(password: string, matches: readonly [number, number][]): string | undefined {
  if (matches.length === 0) return undefined;
  const chars = [...password];
  const covered = [...matches].sort((a, b) => a[0] - b[0]);
  let rest = '';
  let at = 0;
  for (let i = 0; i < covered.length; ) {
    let [start, end] = covered[i]!;
    for (i++; i < covered.length && covered[i]![0] < end; i++) end = Math.max(end, covered[i]![1]);
    rest += chars.slice(at, start).join('') + TERM_PLACEHOLDER;
    at = end;
  }
  return rest + chars.slice(at).join('');
}

/** Each kind's terms as the matcher takes them: tokens of UserInputs, BannedWords whole, 3 characters or more, each once. */
function termsOf(texts: readonly string[]): string[] {
  const seen = new Set<string>();
  return texts.filter((t) => {
    const key = unitsOf(t).join('');
    if ([...t].length < 3 || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

describe('the linear scan finds what the definition finds', () => {
  it('the same rest and the same terms of each kind, on passwords full of overlapping matches', async () => {
    await assertProperty(
      'scan against the definition',
      fc.property(
        text(1, 40),
        fc.array(fc.tuple(text(3, 9), text(3, 9)), { maxLength: 3 }),
        fc.array(text(3, 9), { maxLength: 4 }),
        (password, inputPairs, bannedWords) => {
          const userInputs = inputPairs.map(([a, b]) => `${a} ${b}`);
          const groups = [
            ...(userInputs.length > 0 ? [termsOf(userInputs.flatMap(userInputTokens))] : []),
            ...(bannedWords.length > 0 ? [termsOf(bannedWords)] : []),
          ];
          const expected = groups.map((terms) => terms.map((term) => referenceMatches(password, term)));
          const matches = findTerms(password, contextTerms(userInputs, bannedWords));
          expect(matches.length === 0 ? undefined : restOf(password, matches)).toBe(
            referenceRest(password, expected.flat(2)),
          );
          const foundTerms = (g: number) =>
            [...new Set(matches.filter((m) => m.group === g).map((m) => m.term))].sort((a, b) => a - b);
          groups.forEach((_, g) =>
            expect(foundTerms(g)).toEqual(expected[g]!.flatMap((found, term) => (found.length > 0 ? [term] : []))),
          );
        },
      ),
      RUNS,
    );
  });
});

/**
 * A wide alphabet and passwords of 40 to 120 characters, where a term's possible starts are few against the
 * password's length and each is compared directly (the scan's other way), and terms cut from the password
 * itself, edited once or reversed, so that matches still come.
 */
const WIDE = [...'abcdefghijklmnopqrstuvwxyz41@$A-'];
const edited = (password: string, at: number, length: number, edit: number, ch: string): string => {
  const cut = [...password].slice(at, at + length).join('') || 'abc';
  const i = edit % cut.length;
  switch (edit % 5) {
    case 0:
      return cut;
    case 1:
      return cut.slice(0, i) + ch + cut.slice(i + 1);
    case 2:
      return cut.slice(0, i) + ch + cut.slice(i);
    case 3:
      return cut.slice(0, i) + cut.slice(i + 1);
    default:
      return [...cut].reverse().join('');
  }
};

describe('the direct comparison finds what the definition finds', () => {
  it('the same rest and the same terms, on passwords of a wide alphabet with terms cut from them', async () => {
    const term = fc.tuple(fc.nat(120), fc.integer({ min: 3, max: 9 }), fc.nat(), fc.constantFrom(...WIDE));
    await assertProperty(
      'direct comparison against the definition',
      fc.property(
        fc.array(fc.constantFrom(...WIDE), { minLength: 40, maxLength: 120 }).map((chars) => chars.join('')),
        fc.array(term, { minLength: 1, maxLength: 4 }),
        (password, cuts) => {
          const bannedWords = cuts
            .map(([at, length, edit, ch]) => edited(password, at, length, edit, ch))
            .filter((w) => [...w].length >= 3);
          const groups = bannedWords.length > 0 ? [termsOf(bannedWords)] : [];
          const expected = groups.map((terms) => terms.map((t) => referenceMatches(password, t)));
          const matches = findTerms(password, contextTerms([], bannedWords));
          expect(matches.length === 0 ? undefined : restOf(password, matches)).toBe(
            referenceRest(password, expected.flat(2)),
          );
          const foundTerms = [...new Set(matches.map((m) => m.term))].sort((a, b) => a - b);
          expect(foundTerms).toEqual(
            groups.length === 0 ? [] : expected[0]!.flatMap((found, t) => (found.length > 0 ? [t] : [])),
          );
        },
      ),
      RUNS,
    );
  });
});

describe('the scan keeps no more than it needs, however the matches overlap', () => {
  it('at most one match per start and one per term found, and at most 6 (n + 1) comparisons per term', () => {
    // Tokens of a letter and 3 to 15 `a`s, all matching `a` x 256 everywhere: the overlapping matches number in the tens of thousands.
    const letters = 'bcdefghijklmnopqrstuvwxyz';
    const userInputs = Array.from({ length: 20 }, (_, i) => {
      const tokens: string[] = [];
      for (let j = 0, length = 0; ; j++) {
        const token = `${letters[(i + j) % 25]}${'a'.repeat(3 + (j % 13))}`;
        if ((length += token.length + 1) > 257) return tokens.join(' ');
        tokens.push(token);
      }
    });
    const password = 'a'.repeat(256);
    const terms = contextTerms(userInputs, []);
    const termCount = terms.groups[0]!.count;
    expect(termCount).toBeGreaterThan(300);
    const { matches, comparisons } = scanTerms(password, terms);
    expect(new Set(matches.map((m) => m.term)).size).toBe(termCount);
    expect(matches.length).toBeLessThanOrEqual(256 + termCount);
    expect(comparisons - terms.groups[0]!.comparisons).toBeLessThanOrEqual(
      MATCH_COMPARISONS_PER_TERM * (256 + 1) * termCount,
    );
    expect(restOf(password, matches)).toBe(TERM_PLACEHOLDER);
  });
});
