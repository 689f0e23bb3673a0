/**
 * The levels' one home (functions/domain/compliance-levels.ts): names, Score bands, guess thresholds, Weak and
 * Strong, and the docs' level table, which must say what the module says.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import {
  answeredGuessesLog10,
  atMostWeak,
  COMPLIANCE_LEVELS,
  guessabilityScore,
  guessThresholdLog10,
  scoreBand,
  scoreBandRange,
  STRONG,
  WEAK,
  WEAK_CEILING_LOG10,
} from '../../functions/domain/compliance-levels';

describe('the compliance levels', () => {
  /** Every level by number, 0 (Very Poor) to 4 (Excellent). */
  const levels = COMPLIANCE_LEVELS.map((_, level) => level);

  it('are the five names of the specification, Weak and Strong among them by name', () => {
    expect(COMPLIANCE_LEVELS).toEqual(['Very Poor', 'Weak', 'Average', 'Strong', 'Excellent']);
    expect([WEAK, STRONG]).toEqual([1, 3]);
  });

  it('give every Score 0 to 100 the level of the one band whose range holds it', () => {
    for (let score = 0; score <= 100; score++) {
      const level = scoreBand(score);
      const [first, last] = scoreBandRange(level);
      expect(score >= first && score <= last).toBe(true);
    }
    expect(levels.map(scoreBandRange)).toEqual([
      [0, 19],
      [20, 39],
      [40, 59],
      [60, 79],
      [80, 100],
    ]);
  });

  it("reach level k at 10^t + 5 guesses, t the threshold of k (zxcvbn's margin), and not one guess below", () => {
    expect(levels.map(guessThresholdLog10)).toEqual([0, 3, 6, 8, 10]);
    for (const level of levels.slice(1)) {
      const at = Math.log10(10 ** guessThresholdLog10(level) + 5);
      expect(guessabilityScore(at)).toBe(level);
      expect(guessabilityScore(Math.log10(10 ** guessThresholdLog10(level) + 4))).toBe(level - 1);
    }
  });

  it('cap at Weak: at most 10^6 - 1 guesses, answered as 5.99, and never raise an estimate', () => {
    expect(guessabilityScore(WEAK_CEILING_LOG10)).toBe(WEAK);
    expect(answeredGuessesLog10(WEAK_CEILING_LOG10)).toBe(5.99);
    expect(atMostWeak(12)).toBe(WEAK_CEILING_LOG10);
    expect(atMostWeak(2.5)).toBe(2.5);
  });

  it("are what docs/evaluation.md's level table says", () => {
    const page = readFileSync(path.join(__dirname, '..', '..', 'docs', 'evaluation.md'), 'utf8');
    const rows = [...page.matchAll(/^\| (\d+)-(\d+) \| (\d) \| ([A-Za-z ]+?) \|/gm)].map((m) => [
      Number(m[1]),
      Number(m[2]),
      Number(m[3]),
      m[4],
    ]);
    expect(rows).toEqual(COMPLIANCE_LEVELS.map((name, level) => [...scoreBandRange(level), level, name]));
  });
});
