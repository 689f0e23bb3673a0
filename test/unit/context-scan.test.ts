/**
 * The context matcher's scan (functions/domain/evaluation/context/context-terms.ts) on small crafted inputs, exactly:
 * its comparisons of characters, the work its bound (MATCH_COMPARISONS_PER_TERM x (n + 1) per term) is stated
 * in, which choice of the direct comparison or the scan along the password, and which filter, decides; the
 * matches it keeps; characters beyond ASCII; and judgeInContext at its two ties. The properties
 * (test/reliability/term-scan.property.test.ts) check what is found, not the work or the tie-breaks.
 *
 * Run: npx jest test/unit/context-scan
 */
import {
  contextTerms,
  findTerms,
  judgeInContext,
  scanTerms,
  TERM_KIND_MESSAGES,
} from '../../functions/domain/evaluation/context/context-terms';
import { guessThresholdLog10, STRONG, WEAK_CEILING_LOG10 } from '../../functions/domain/compliance-levels';
import type { GuessabilityEstimator } from '../../functions/domain/evaluation/estimate/guessability';

/** [password, UserInputs, BannedWords, comparisons, why]. */
type Counted = [string, string[], string[], number, string];

describe('the comparisons a scan makes, exactly', () => {
  // BannedWords' preparation is done once per policy and is not counted per request; a UserInput's is.
  it.each<Counted>([
    ['xabcx', [], ['abc'], 3, 'one start on `a`, compared directly: a, b, c, and nothing past the match'],
    ['abcax', [], ['abc'], 3, 'two starts x 3 = n + 1, still direct; the start at 3 is too near the end to compare'],
    ['abcaxx', [], ['abc'], 5, 'direct: 3 at the match, then `a` and `x` against `ab` at 3'],
    ['abcaaaaaaaaaa', [], ['abc'], 22, 'eleven starts on `a`: scanned along the password, forwards only'],
    ['abcxxxx', [], ['abz'], 0, '`bz` is not in the password: the term is not compared at all'],
    ['abaxx', [], ['aba'], 5, 'a palindrome is not looked for reversed as well'],
    ['abcxcb', [], ['abc'], 3, '`cb` is in the password but not `ba`: no reversed comparison'],
    ['cmexxx', [], ['acme'], 12, 'the first character removed, `c` counting twice: 2 x 4 > n + 1, scanned'],
    ['cmexxxx', [], ['acme'], 5, 'the same, 2 x 4 = n + 1: compared directly at 0, no `a` and nothing before it'],
    ['acmexxxxxxx', [], ['acme'], 9, 'the match at 0 (4), then at 1 the first removed (5), 0 not compared again'],
    ['xxxxxxxxacm', [], ['acme'], 3, 'the last character removed at the end of the password: nothing read past it'],
    ['xxxxxxxxacxm', [], ['acme'], 8, 'no insertion is looked for where it would end past the password'],
    ['xcmexxxxxxx', [], ['acme'], 10, 'the first character changed: also compared from before the `c`'],
    ['acmeaaaaaaaa', [], ['acme'], 31, 'a fuzzy term scanned: prefixes, then suffixes along the reversed password'],
    [`aab${'x'.repeat(20)}`, [], ['aabc'], 11, 'first two characters alike, 6 x 4 = n + 1: each `a` compared once'],
    ['dcbaddd', [], ['abcd'], 4, 'reversed only, 4 starts x 4 = 2 (n + 1): compared directly, and no forwards work'],
    ['dcbadd', [], ['abcd'], 4, 'the same with 3 starts'],
    [`dcba${'d'.repeat(20)}`, [], ['abcd'], 43, 'reversed only, 21 starts: scanned along the password'],
    ['zz', ['aaaa'], [], 6, "the UserInput's preparation: 3 for each Z-array, its boxes reused"],
    ['zz', ['abcab'], [], 8, 'the same for `abcab` and `bacba`: 4 each'],
    ['zz', ['aaaab'], [], 11, '`aaaab`, 7, its boxes extended past their ends, and `baaaa`, 4'],
    ['zz', ['aaaa'], ['abcde'], 6, "the UserInput's preparation only, not the BannedWord's 8"],
    ['zz', [], ['abcde'], 0, "a BannedWord's preparation is the policy's, not the request's"],
  ])('%j, UserInputs %j, BannedWords %j: %i (%s)', (password, userInputs, bannedWords, comparisons) => {
    expect(scanTerms(password, contextTerms(userInputs, bannedWords)).comparisons).toBe(comparisons);
  });
});

describe('the matches a scan keeps', () => {
  const found = (password: string, bannedWords: string[]) =>
    findTerms(password, contextTerms([], bannedWords)).map(({ term, start, end }) => `${term}:${start}-${end}`);

  /** [password, BannedWords, the matches kept, each `term:start-end`, why]. */
  type Kept = [string, string[], string[], string];
  it.each<Kept>([
    [
      'acme',
      ['acme', 'acne'],
      ['0:0-4', '1:0-4', '0:0-4', '0:1-4'],
      "one per term, its first found, then one per start, the farthest end's, the earlier term's on a tie (`acne` matches `acme` with one character changed)",
    ],
    ['acmeacme', ['acme'], ['0:0-4', '0:0-4', '0:1-4', '0:4-8', '0:5-8'], 'each start of each match'],
    [
      'aaabab',
      ['aaab'],
      ['0:0-4', '0:0-4', '0:1-6', '0:2-6'],
      'a self-overlapping term: from 0 as written, from 1 with a `b` inserted, from 2 with the second `a` changed',
    ],
    ['xxxxxxxxacmz', ['acme'], ['0:8-12', '0:8-12'], 'its last character changed at the end: nothing read past it'],
    ['xxxxxxxxacm', ['acme'], ['0:8-11', '0:8-11'], 'its last character removed at the end: nothing read past it'],
    ['cmexxxx', ['acme'], ['0:0-3', '0:0-3'], 'its first character removed at the start, where nothing comes before'],
    ['xzoëx', ['Zoë'], ['0:1-4', '0:1-4'], 'a character beyond ASCII read as itself'],
    ['xzoäx', ['Zoë'], [], 'another character beyond ASCII is another character'],
    ['ab\u0000', ['ab\u0080'], [], 'U+0080, the first beyond ASCII, is not NUL'],
  ])('%j with BannedWords %j keeps %j: %s', (password, bannedWords, kept) => {
    expect(found(password, bannedWords)).toEqual(kept);
  });

  it('takes each term once by its normal form, and none shorter than 3 characters', () => {
    expect(contextTerms(['John J0hn', 'jo'], ['Acme', 'ACME', '4cme', 'ac']).wordLists).toEqual([['john'], ['acme']]);
  });

  it("prepares a policy's BannedWords once: the same list gives the same words, for zxcvbn-ts's dictionary", () => {
    const bannedWords = ['Acme', 'Contoso'];
    expect(contextTerms(['jsmith'], bannedWords).wordLists[1]).toBe(contextTerms([], bannedWords).wordLists[0]);
  });

  it('takes a UserInput alone, without BannedWords', () => {
    expect(contextTerms(['jsmith']).wordLists).toEqual([['jsmith']]);
  });
});

describe('judgeInContext at its ties', () => {
  /** An estimator that gives each text the guesses listed for it, and a feedback of its own for the rest, `•#x`. */
  const stub =
    (guesses: Record<string, number>): GuessabilityEstimator =>
    (password) => ({
      guessesLog10: guesses[password]!,
      feedback: [password === '•#x' ? 'zxcvbn.warnings.dates' : 'zxcvbn.warnings.common'],
    });
  const terms = contextTerms([], ['Acme']);

  it('a rest exactly at the Strong threshold stands on its own: no failure', () => {
    const strong = Math.log10(10 ** guessThresholdLog10(STRONG) + 5);
    expect(judgeInContext('acme#x', terms, stub({ 'acme#x': 12, '•#x': strong }))).toEqual({
      guessesLog10: strong,
      feedback: ['zxcvbn.warnings.dates'],
      failures: [],
    });
  });

  it('the password and its rest at the same guesses: the rest is the estimate, as when the rest has fewer', () => {
    expect(judgeInContext('acme#x', terms, stub({ 'acme#x': 9, '•#x': 9 })).feedback).toEqual([
      'zxcvbn.warnings.dates',
    ]);
    expect(judgeInContext('acme#x', terms, stub({ 'acme#x': 4, '•#x': 4 }))).toEqual({
      guessesLog10: Math.min(4, WEAK_CEILING_LOG10),
      feedback: [TERM_KIND_MESSAGES.BannedWord.suggestion, 'zxcvbn.warnings.dates'],
      failures: [{ Rule: 'BannedWord', Required: 0, Found: 1, Message: TERM_KIND_MESSAGES.BannedWord.failure }],
    });
  });
});
