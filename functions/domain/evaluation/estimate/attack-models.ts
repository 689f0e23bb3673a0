import { RANK_SEPARATOR, rankCount } from './ranked-dictionary';
import type { AdjacencyGraph } from '../text/keyboards';
import { keyboardWalks } from './keyboard-walks';
import { readMarkovModel, type MarkovModel, type MarkovModelData } from './markov-model';
import { ruleModel, type PasswordList, type RankedWords, type RuleConstruction, type RuleModel } from './rule-model';

/**
 * The attack models beside zxcvbn-ts (docs/evaluation.md#guess-numbers): the rule model (rule-model.ts, with
 * the walk list of keyboard-walks.ts) and the Markov model (markov-model.ts). Each estimates the guesses of
 * one kind of attack; the estimator takes the fewest over them and zxcvbn-ts (Ur et al., "Measuring Real-World
 * Accuracies and Biases in Modeling Password Guessability", USENIX Security 2015: the minimum over several
 * guessing approaches tracks professional crackers).
 */

/** Which model estimated the fewest guesses: the rule model reading words or a keyboard walk, or the Markov model. */
export type AttackModel = RuleConstruction | 'markov';

interface AttackEstimate {
  readonly guessesLog10: number;
  readonly model: AttackModel;
  /** The models' work: the rule model's readings and steps, the Markov model's symbols (the password's characters and its end). */
  readonly work: { readonly 'rule readings': number; readonly 'rule steps': number; readonly 'markov symbols': number };
}

export interface AttackModels {
  /** The fewest guesses of the models, and which one. */
  estimate(password: string): AttackEstimate;
  readonly rules: RuleModel;
  readonly markov: MarkovModel;
}

/** zxcvbn-ts's common-password dictionary, where a word counts among the entries of letters alone (rankedWords). */
export const COMMON_PASSWORDS = 'passwords-common';

export interface AttackModelSources {
  /** zxcvbn-ts's ranked dictionaries by name (word -> rank, as zxcvbn-ts reads them) and each one's longest word. */
  readonly rankedDictionaries: Readonly<Record<string, Record<string, number>>>;
  readonly maxWordSizes: Readonly<Record<string, number>>;
  /**
   * The common-password dictionary: its words in rank order, separated by RANK_SEPARATOR, with no ties, or their
   * wordRanks counted ahead of time (guessability-dictionaries.bin carries them: counting them costs a cold start).
   */
  readonly commonPasswords: { readonly name: string } & (
    | { readonly lines: string }
    | { readonly wordRanks: Int32Array }
  );
  readonly breached?: PasswordList;
  readonly graphs: readonly AdjacencyGraph[];
  readonly markov: MarkovModelData;
}

export function attackModels(sources: AttackModelSources): AttackModels {
  const rules = ruleModel({
    words: rankedWords(sources),
    breached: sources.breached,
    walks: sources.graphs.map(keyboardWalks),
  });
  const markov = readMarkovModel(sources.markov);
  return {
    rules,
    markov,
    estimate(password) {
      const byRules = rules.estimate(password);
      const byMarkov = markov.guessesLog10(password);
      const work = {
        'rule readings': byRules.readings,
        'rule steps': byRules.steps,
        'markov symbols': [...password].length + 1,
      };
      return byRules.guessesLog10 <= byMarkov
        ? { guessesLog10: byRules.guessesLog10, model: byRules.construction, work }
        : { guessesLog10: byMarkov, model: 'markov', work };
    },
  };
}

/**
 * A word's rank: the lowest over the dictionaries. In the common-password list a word counts among its words
 * only (entries of letters alone): a rule attack takes its base words from there, not `123456` or `abc123`,
 * so `shadow`, rank 18 in the list, is word 8.
 */
export function rankedWords(
  sources: Pick<AttackModelSources, 'rankedDictionaries' | 'maxWordSizes' | 'commonPasswords'>,
): RankedWords {
  const common = sources.commonPasswords;
  const wordRank = 'wordRanks' in common ? common.wordRanks : wordRanks(common.lines);
  const dictionaries = Object.entries(sources.rankedDictionaries).map(([name, lookup]) => ({
    lookup,
    maxLength: sources.maxWordSizes[name] ?? 0,
    common: name === sources.commonPasswords.name,
  }));
  return {
    maxLength: Math.max(...dictionaries.map((d) => d.maxLength)),
    rank(word) {
      let best: number | undefined;
      for (const { lookup, maxLength, common } of dictionaries) {
        if (word.length > maxLength) continue;
        const rank = lookup[word];
        if (typeof rank !== 'number') continue;
        const counted = common ? wordRank[rank]! : rank;
        if (best === undefined || counted < best) best = counted;
      }
      return best;
    },
  };
}

/** For each rank of a list (1-based), how many of the entries up to it are letters a to z alone, at least 1. One pass over the character codes, at init. */
export function wordRanks(lines: string): Int32Array {
  const separator = RANK_SEPARATOR.charCodeAt(0);
  const count = rankCount(lines);
  const ranks = new Int32Array(count + 1);
  let rank = 1;
  let words = 0;
  let letters = true;
  for (let i = 0; i <= lines.length && count > 0; i++) {
    const code = i < lines.length ? lines.charCodeAt(i) : separator;
    if (code === separator) {
      if (letters) words++;
      ranks[rank++] = Math.max(1, words);
      letters = true;
    } else if (code < 97 || code > 122) letters = false;
  }
  return ranks;
}
