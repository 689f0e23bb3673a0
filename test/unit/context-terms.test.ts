/**
 * Evaluation in context (functions/domain/evaluation/context/context-terms.ts, docs/evaluation.md#evaluation-in-context): the tokens
 * of UserInputs, matching per kind of form, what is left of a password and how it is judged, through the
 * evaluator with the shipped estimator. The worked examples of docs/evaluation.md are read from the page.
 *
 * Run: npx jest test/unit/context-terms
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { BREACHED_PASSWORDS } from '../../functions/domain/evaluation/estimate/breached-password-list';
import {
  contextTerms,
  findTerms,
  judgeInContext,
  restOf,
  TERM_KIND_MESSAGES,
  userInputTokens,
} from '../../functions/domain/evaluation/context/context-terms';
import { TERM_PLACEHOLDER } from '../../functions/domain/evaluation/estimate/rule-model';
import { guessEstimator } from '../../functions/domain/evaluation/estimate/guess-estimator';
import { answeredGuessesLog10, guessabilityScore } from '../../functions/domain/compliance-levels';
import { evaluatePassword, type StrengthEvaluation } from '../../functions/domain/evaluation/strength-evaluator';
import type { GuessabilityEstimator } from '../../functions/domain/evaluation/estimate/guessability';
import type { StrengthPolicy } from '../../functions/domain/strength-policy';
import { seedStrengthPolicy } from '../support/seed-reference';
import { renderMessage } from '../../functions/domain/evaluation/messages/catalogue';

const policy = (id: number, bannedWords?: string[]): StrengthPolicy => ({
  ...seedStrengthPolicy(id),
  ...(bannedWords ? { BannedWords: bannedWords } : {}),
});

/** What a failure and a suggestion of each kind say in an answer in English. */
const TERM_KIND_TEXT = {
  UserInput: {
    failure: renderMessage('en', TERM_KIND_MESSAGES.UserInput.failure),
    suggestion: renderMessage('en', TERM_KIND_MESSAGES.UserInput.suggestion),
  },
  BannedWord: {
    failure: renderMessage('en', TERM_KIND_MESSAGES.BannedWord.failure),
    suggestion: renderMessage('en', TERM_KIND_MESSAGES.BannedWord.suggestion),
  },
};

let estimate: GuessabilityEstimator;
beforeAll(() => {
  estimate = guessEstimator();
});

/** The evaluation as the function makes it: the blocklist's answer, the policy's BannedWords, the request's UserInputs. */
const inContext = (
  id: number,
  password: string,
  userInputs: string[] = [],
  bannedWords?: string[],
): StrengthEvaluation =>
  evaluatePassword(policy(id, bannedWords), password, estimate, BREACHED_PASSWORDS.has(password), userInputs);
const alone = (id: number, password: string): StrengthEvaluation =>
  evaluatePassword(policy(id), password, estimate, BREACHED_PASSWORDS.has(password));
/** What is left of the password once its terms are taken out, or undefined when none matches. */
const leftOf = (password: string, userInputs: string[] = [], bannedWords: string[] = []): string | undefined => {
  const matches = findTerms(password, contextTerms(userInputs, bannedWords));
  return matches.length === 0 ? undefined : restOf(password, matches);
};
const rules = (evaluation: StrengthEvaluation) => evaluation.Failures.map((f) => f.Rule);

/** The user and the organization of the examples: what an application knows when it asks. */
const USER = ['jsmith', 'John Smith', 'jsmith@acme.example', 'Acme Corporation', 'E-104729'];
const ORGANIZATION = ['Acme', 'Contoso', 'Passwordstate', 'Fabrikam', 'London'];

describe('the tokens of a UserInput, as an attacker derives them', () => {
  it.each([
    ['jsmith', ['jsmith']],
    ['John Smith', ['John', 'Smith']],
    ['jsmith@acme.example', ['jsmith', 'acme']],
    ['john.smith@mail.acme.co.uk', ['john', 'smith', 'mail', 'acme']],
    ['JSMITH01', ['JSMITH']],
    ['E-104729', ['104729']],
    ['Acme_Corp-2026', ['Acme', 'Corp', '2026']],
    ['agent007', ['agent', '007']],
    ['Finance & Payroll', ['Finance', 'Payroll']],
    ["O'Brien", ["O'Brien"]],
    ['Ｊｏｈｎ\u3000Ｓｍｉｔｈ', ['John', 'Smith']],
    ['@acme', ['acme']],
    ['@acme.example', ['acme']],
    ['jsmith@mail.acme.example.', ['jsmith', 'mail', 'acme']],
    ['Jo Li', []],
    ['r2d2', []],
    ['x'.repeat(64), ['x'.repeat(64)]],
    ['x'.repeat(65), []],
  ])('%j → %j', (input, tokens) => {
    expect(userInputTokens(input)).toEqual(tokens);
  });
});

describe('matching: the forms a term is found in, and what is left', () => {
  /** A password built on a term: the UserInputs, the BannedWords, and what is left once the term is taken out. */
  type Built = [password: string, userInputs: string[], bannedWords: string[], left: string | undefined];
  /** Such passwords, by the form the term takes in them. */
  const forms: Record<string, Built[]> = {
    // Names, as written, in any case, adjacent or apart.
    names: [
      ['JohnSmith!23', ['John Smith'], [], '••!23'],
      ['Smith.John.1984', ['John Smith'], [], '•.•.1984'],
      ['jsmith2026', ['jsmith'], [], '•2026'],
      ['Lee$2026lee', ['Lee Kim'], [], '•$2026•'],
    ],
    // Email parts: the local part and the domain's labels, not the top-level domain.
    'email parts': [
      ['Acme.jsmith7', ['jsmith@acme.example'], [], '•.•7'],
      ['Mail#acme!', ['john.smith@mail.acme.co.uk'], [], '•#•!'],
      ['Mail4acme!', ['john.smith@mail.acme.co.uk'], [], '••!'],
      ['Example2026!', ['jsmith@acme.example'], [], undefined],
    ],
    // The company, from UserInputs or BannedWords.
    company: [
      ['AcmeCorp2026!', ['Acme Corp'], [], '••2026!'],
      ['AcmeCorp2026!', [], ['Acme'], '•Corp2026!'],
      ['Contoso#2026', [], ['Contoso'], '•#2026'],
      ['I<3Fabrikam', [], ['Fabrikam'], 'I<3•'],
    ],
    // l33t forms: the blocklist's readings, one character each.
    l33t: [
      ['@cm3Rocks!2026', [], ['Acme'], '•Rocks!2026'],
      ['J0hn$mith#1', ['John Smith'], [], '••#1'],
      ['C0nt0s0!99', [], ['Contoso'], '•!99'],
      ['5m1th!2026', ['jsmith'], [], '•!2026'],
      ['L0nd0n_2026', [], ['London'], '•_2026'],
    ],
    // Edit distance 1, for terms of 4 characters or more: changed, inserted, removed.
    'edit distance 1': [
      ['Kontoso#2026', [], ['Contoso'], '•#2026'],
      ['Contosso#2026', [], ['Contoso'], '•#2026'],
      ['Contso#2026', [], ['Contoso'], '•#2026'],
      ['Jsmyth2026!', ['jsmith'], [], '•2026!'],
      ['Fabrkam99!', [], ['Fabrikam'], '•99!'],
    ],
    // Reversed.
    reversed: [
      ['Htimsj#2026!', ['jsmith'], [], '•#2026!'],
      ['osotnoC2026', [], ['Contoso'], '•2026'],
      ['Emca!1234', [], ['Acme'], '•!1234'],
    ],
    // Terms with years and symbols around them, and terms that hold them.
    'years and symbols': [
      ['!!Acme2026??', [], ['Acme'], '!!•2026??'],
      ['2026-Contoso-2027', [], ['Contoso'], '2026-•-2027'],
      ['#Smith#1999#', ['John Smith'], [], '#•#1999#'],
      ['Acme2026!Rocks', [], ['Acme2026!'], '•Rocks'],
      ['Emp104729!x', ['E-104729'], [], 'Emp•!x'],
    ],
  };

  it.each(Object.entries(forms).flatMap(([form, rows]) => rows.map((row) => [form, ...row] as const)))(
    '%s: %s with %j and %j leaves %j',
    (_form, password, userInputs, bannedWords, left) => {
      expect(leftOf(password, userInputs, bannedWords)).toBe(left);
    },
  );

  it.each([
    ['a 3-character term at edit distance 1 (only as written or reversed)', 'Lea$2026', ['Lee'], []],
    ['a term both reversed and changed', 'Osotnok#2026', [], ['Contoso']],
    ['more than half stand-ins: 4(m3 for acme', 'X4(m3Y', [], ['Acme']],
    ['a token shorter than 3 characters', 'JoLi2026!', ['Jo Li'], []],
    ['the top-level domain of an address', 'Example!2026', ['jsmith@acme.example'], []],
    ['two edits', 'Kontosso#2026', [], ['Contoso']],
  ])('no match: %s', (_what, password, userInputs, bannedWords) => {
    expect(leftOf(password, userInputs, bannedWords)).toBeUndefined();
  });

  it('takes the password in NFKC form: full-width letters are the term, and the rest keeps its case', () => {
    expect(leftOf('ＡＣＭＥsecure', [], ['acme'])).toBe(`${TERM_PLACEHOLDER}secure`);
  });
});

describe("the issue's examples fail under policies 1 and 2; without the context they did not", () => {
  it.each([
    ['AcmeCorp2026!', [], ['Acme'], 'BannedWord'],
    ['Acme$ecure99', [], ['Acme'], 'BannedWord'],
    ['PasswordStateRocks1!', [], ['Passwordstate'], 'BannedWord'],
    ['Contoso#2026', [], ['Contoso'], 'BannedWord'],
    ['@cm3Rocks!2026', [], ['Acme'], 'BannedWord'],
    ['Kontoso#2026', [], ['Contoso'], 'BannedWord'],
    ['Jsmith2026!x', ['jsmith', 'John Smith'], [], 'UserInput'],
    ['Jonathan.Smith1', ['jsmith', 'John Smith'], [], 'UserInput'],
    ['J0hn$mith#1', ['jsmith', 'John Smith'], [], 'UserInput'],
  ])(
    '%s (UserInputs %j, BannedWords %j): %s, at most Weak, never Compliant',
    (password, userInputs, bannedWords, rule) => {
      for (const id of [1, 2]) {
        const result = inContext(id, password, userInputs, bannedWords);
        expect(rules(result)).toEqual([rule]);
        expect(result.ComplianceLevel).toBeLessThanOrEqual(1);
        expect(result.Compliant).toBe(false);
        // After the length sentence (when the password is shorter than the policy prefers), the kind's sentence.
        expect(result.Suggestions.find((s) => !s.startsWith('Use '))).toBe(
          TERM_KIND_TEXT[rule as 'UserInput' | 'BannedWord'].suggestion,
        );
      }
      // Every one of them but the l33t name and the two names joined was Compliant under policy 1 before: the
      // attack models (docs/evaluation.md#guess-numbers) read `Jonathan.Smith1` as a first name and a last name.
      if (password !== 'J0hn$mith#1' && password !== 'Jonathan.Smith1') expect(alone(1, password).Compliant).toBe(true);
    },
  );

  it('a password built on terms of both kinds fails both rules, UserInput first, each with its count of distinct terms', () => {
    const result = inContext(2, 'JohnAcme!2026', ['John Smith'], ['Acme']);
    expect(result.Failures).toEqual([
      {
        Rule: 'UserInput',
        Required: 0,
        Found: 1,
        Message: "The password is built on the user's name or other personal information.",
      },
      {
        Rule: 'BannedWord',
        Required: 0,
        Found: 1,
        Message: 'The password is built on a word this organization does not allow.',
      },
    ]);
    expect(result.Suggestions.slice(0, 3)).toEqual([
      'Use 14 characters or more.',
      TERM_KIND_TEXT.UserInput.suggestion,
      TERM_KIND_TEXT.BannedWord.suggestion,
    ]);
    // Its rest, `••!2026`, is the two terms, a symbol and a year: Very Poor.
    expect(result.ComplianceLevel).toBe(0);
  });

  it('the composition failures come first, then BreachedPassword, then the context rules', () => {
    const result = inContext(2, 'london123', [], ['London']);
    expect(BREACHED_PASSWORDS.has('london123')).toBe(true);
    expect(rules(result)).toEqual([
      'MinimumSymbolCharacters',
      'MinimumUpperCaseCharacters',
      'RequiresUpperAndLowerCase',
      'BreachedPassword',
      'BannedWord',
    ]);
  });

  it('a term matched where what is left stands on its own is no failure, and these keep the level they have without the context', () => {
    for (const password of ['AcmeVq8#Lz2!Tp6$Wn', 'q7#Lp2@acme!Zx9$Tb4&Rk8^']) {
      const rest = leftOf(password, [], ['Acme']);
      expect(rest).toBeDefined();
      const [judged, before] = [inContext(2, password, [], ['Acme']), alone(2, password)];
      expect({ ...judged, GuessesLog10: before.GuessesLog10 }).toEqual(before);
      // Only the estimate differs: an attacker who knows the term has only the rest to guess.
      expect(judged.GuessesLog10).toBe(
        answeredGuessesLog10(estimate(rest!, contextTerms([], ['Acme']).wordLists).guessesLog10),
      );
      expect(judged.GuessesLog10).toBeLessThan(before.GuessesLog10);
    }
  });

  it('a PIN that is the employee number fails under the PIN policy', () => {
    expect(rules(inContext(7, '104729', ['E-104729']))).toEqual(['UserInput']);
    expect(alone(7, '104729').Compliant).toBe(true);
  });
});

describe('NFKC and the Weak cap, pinned for BannedWords under policy 2', () => {
  const banned = (Rule: 'BannedWord') => ({ Rule, Required: 0, Found: 1, Message: TERM_KIND_TEXT.BannedWord.failure });
  const answer = (r: StrengthEvaluation) => ({
    level: r.ComplianceLevelName,
    Compliant: r.Compliant,
    Failures: r.Failures,
    GuessesLog10: r.GuessesLog10,
  });

  it('a ligature is read as its letters: Oﬃcer#2026 is built on the BannedWord Officer (without NFKC it was Strong and Compliant)', () => {
    expect(leftOf('Oﬃcer#2026', [], ['Officer', 'Fabrikam'])).toBe(`${TERM_PLACEHOLDER}#2026`);
    expect(answer(inContext(2, 'Oﬃcer#2026', [], ['Officer', 'Fabrikam']))).toEqual({
      level: 'Weak',
      Compliant: false,
      Failures: [banned('BannedWord')],
      GuessesLog10: 3.07,
    });
    expect(answer(inContext(2, 'Oﬃcer#2026', [], []))).toEqual({
      level: 'Strong',
      Compliant: true,
      Failures: [],
      GuessesLog10: 8,
    });
  });

  it('a match caps the estimate at Weak, and never raises it: Fabrikam#73kq falls from Excellent to 5.99, Fabrikam2026!! from Strong to its rest (the term, a year, a symbol twice), @cm3Acme! stays Very Poor (its rest, the term twice and a symbol, at 0)', () => {
    expect(answer(alone(2, 'Fabrikam#73kq'))).toEqual({
      level: 'Excellent',
      Compliant: true,
      Failures: [],
      GuessesLog10: 10.57,
    });
    expect(answer(inContext(2, 'Fabrikam#73kq', [], ['Fabrikam']))).toEqual({
      level: 'Weak',
      Compliant: false,
      Failures: [banned('BannedWord')],
      GuessesLog10: 5.99,
    });
    expect(answer(alone(2, 'Fabrikam2026!!'))).toEqual({
      level: 'Strong',
      Compliant: true,
      Failures: [],
      GuessesLog10: 8.49,
    });
    expect(answer(inContext(2, 'Fabrikam2026!!', [], ['Fabrikam']))).toEqual({
      level: 'Very Poor',
      Compliant: false,
      Failures: [banned('BannedWord')],
      GuessesLog10: 2.6,
    });
    expect(answer(inContext(2, '@cm3Acme!', [], ['Acme']))).toEqual({
      level: 'Very Poor',
      Compliant: false,
      Failures: [banned('BannedWord')],
      GuessesLog10: 0,
    });
  });
});

describe('messages and suggestions name the kind of term, never the term or the password', () => {
  it.each([
    ['Jsmith2026!x', ['jsmith', 'John Smith'], []],
    ['AcmeCorp2026!', [], ['AcmeCorp']],
    ['Fabr1kam#Lond0n', ['Fabrikam'], ['London']],
  ])('%s', (password, userInputs, bannedWords) => {
    const text = JSON.stringify(inContext(2, password, userInputs, bannedWords)).toLowerCase();
    expect(inContext(2, password, userInputs, bannedWords).Failures.length).toBeGreaterThan(0);
    for (const secret of [password, ...userInputs.flatMap(userInputTokens), ...bannedWords])
      expect(text).not.toContain(secret.toLowerCase());
  });
});

describe('each kind says what to leave out, in words of its own', () => {
  it.each([
    ['UserInput', /user's name/],
    ['BannedWord', /words this organization does not allow/],
  ] as const)('%s', (kind, words) => {
    expect(TERM_KIND_TEXT[kind].failure).toMatch(/^The password is built on /);
    expect(TERM_KIND_TEXT[kind].suggestion).toMatch(new RegExp(`^Leave out the ${words.source}`));
  });
});

describe('controls keep their levels with UserInputs and BannedWords present', () => {
  it.each([
    // Generated by the seed generator policies, random 16 characters, five-word passphrases.
    [1, 'xK9#mQ2$vL8@pW4!'],
    [2, 'Tq7!rZ2#wN5$kP9@'],
    [2, 'h3R$k9!Lm2@Qz7#X'],
    [2, 'unclip-shabby-aviator-revenge-footnote'],
    [8, 'correct horse battery staple ledger'],
    [2, 'Vacation-Sprinkled-Unmasked-8!'],
  ])('policy %i: %s', (id, password) => {
    expect(inContext(id, password, USER, ORGANIZATION)).toEqual(alone(id, password));
  });

  it('no context at all: the evaluation is exactly the one without UserInputs and BannedWords', () => {
    const counting: { calls: unknown[][] } = { calls: [] };
    const spy: GuessabilityEstimator = (password, lists) => (
      counting.calls.push([password, lists]), estimate(password, lists)
    );
    evaluatePassword(policy(2, []), 'Jsmith2026!x', spy, false, []);
    // One estimate, of the password, with no user inputs: the path of an evaluation without context.
    expect(counting.calls).toEqual([['Jsmith2026!x', undefined]]);
  });
});

describe('judgeInContext: the password estimated, and what is left when a term matches', () => {
  it('gives zxcvbn-ts the terms as user inputs: it finds a spelling the matcher leaves (three stand-ins of four) and warns', () => {
    const terms = contextTerms([], ['Acme']);
    expect(findTerms('4(m3', terms)).toEqual([]);
    const judged = judgeInContext('4(m3', terms, estimate);
    expect(judged.feedback).toContain('zxcvbn.warnings.userInputs');
    expect(renderMessage('en', 'zxcvbn.warnings.userInputs')).toBe(
      'There should not be any personal or page related data.',
    );
    expect(judged.guessesLog10).toBeLessThan(estimate('4(m3').guessesLog10);
    expect(judged.failures).toEqual([]);
  });

  it('estimates the password once when no term matches; else what is left, then the password, the fewer guesses counting', () => {
    const calls: string[] = [];
    const counting: GuessabilityEstimator = (password, lists) => (calls.push(password), estimate(password, lists));
    const terms = contextTerms(['John Smith'], ['Acme']);
    expect(judgeInContext('Vq8#Lz2!Tp6$Wn', terms, counting).failures).toEqual([]);
    expect(calls).toEqual(['Vq8#Lz2!Tp6$Wn']);
    expect(judgeInContext('AcmeVq8#Lz2!Tp6$Wn', terms, counting)).toEqual({
      ...estimate('•Vq8#Lz2!Tp6$Wn', terms.wordLists),
      failures: [],
    });
    expect(calls).toEqual(['Vq8#Lz2!Tp6$Wn', '•Vq8#Lz2!Tp6$Wn', 'AcmeVq8#Lz2!Tp6$Wn']);
  });

  it('a chance match never raises the estimate: the whole password, read as the rule model reads it, has fewer guesses than what is left', () => {
    // `ace` (a token of the UserInput) matches inside `acetone`; cut out, the rest no longer begins with a word.
    const password = 'acetone clubbed abacus abacus abacus';
    const terms = contextTerms(['Ace Ventures'], []);
    const matches = findTerms(password, terms);
    expect(matches.length).toBeGreaterThan(0);
    const [whole, rest] = [estimate(password, terms.wordLists), estimate(restOf(password, matches), terms.wordLists)];
    expect(whole.guessesLog10).toBeLessThan(rest.guessesLog10);
    expect(judgeInContext(password, terms, estimate)).toEqual({ ...whole, failures: [] });
  });

  it('counts a term found forwards and reversed once', () => {
    expect(judgeInContext('acme#emca', contextTerms([], ['Acme']), estimate).failures).toEqual([
      { Rule: 'BannedWord', Required: 0, Found: 1, Message: TERM_KIND_MESSAGES.BannedWord.failure },
    ]);
  });
});

describe('the worked examples of docs/evaluation.md', () => {
  const page = readFileSync(path.join(__dirname, '..', '..', 'docs', 'evaluation.md'), 'utf8');
  const section = page.slice(
    page.indexOf('### Worked examples of matching'),
    page.indexOf('\n## ', page.indexOf('### Worked examples of matching')),
  );
  const code = (cell: string) => /^`(.*)`$/.exec(cell)?.[1] ?? cell;
  const rows = section
    .split('\n')
    .filter((line) => /^\| \d/.test(line))
    .map((line) => line.slice(2, -2).split(' | '));

  it('has its table', () => {
    expect(rows.length).toBeGreaterThanOrEqual(15);
  });

  it.each(rows.map((cells) => [cells[1], cells] as const))(
    '%s',
    (_password, [id, password, userInputs, bannedWords, left, levels, failures]) => {
      const [pw, inputs, words] = [
        code(password!),
        JSON.parse(code(userInputs!)) as string[],
        JSON.parse(code(bannedWords!)) as string[],
      ];
      const terms = contextTerms(inputs, words);
      const rest = leftOf(pw, inputs, words);
      if (left === 'none') expect(rest).toBeUndefined();
      else expect(`\`${rest}\` (${guessabilityScore(estimate(rest!, terms.wordLists).guessesLog10)})`).toBe(left);
      const [before, after] = levels!.split(' → ').map(Number);
      expect(alone(Number(id), pw).ComplianceLevel).toBe(before);
      const result = inContext(Number(id), pw, inputs, words);
      expect(result.ComplianceLevel).toBe(after);
      const added = result.Failures.filter((f) => f.Rule === 'UserInput' || f.Rule === 'BannedWord').map(
        (f) => `${f.Rule} (${f.Found})`,
      );
      expect(added.join(', ') || 'none').toBe(failures);
    },
  );
});
