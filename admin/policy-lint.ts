import { contextTerms, MAX_PASSWORD_LENGTH, strengthScore, weightsOf } from '../functions/domain/evaluation';
import {
  AMBIGUOUS_CHARS,
  parsePattern,
  SEPARATORS,
  type GeneratorPolicy,
  type PatternToken,
} from '../functions/domain/generator-policy';
import { classesOn, eligibleWords, entropyBits, generationMode } from '../functions/domain/password-generator';
import {
  COMPLIANCE_LEVELS,
  GUESS_THRESHOLDS_LOG10,
  guessThresholdLog10,
  scoreBand,
  STRONG,
} from '../functions/domain/compliance-levels';
import type { StrengthPolicy } from '../functions/domain/strength-policy';
import { quoted, shownJson } from '../functions/domain/unicode-text';
import { WORD_LIST } from '../functions/domain/word-list';
import type { CollectionName } from '../store/policy-store';

/**
 * Policies held to NIST SP 800-63B-4 and OWASP ASVS 5.0.0 (docs/administration.md#the-standards-lint-passwordrules-report). Pure: each
 * function takes policies (and the deployment's settings) and returns findings; the CLI prints them.
 */

/** How far a finding departs from a standard: breaks a SHALL, departs from a SHOULD, or advice. */
export type Severity = 'shall' | 'should' | 'advice';
export const SEVERITY_LABELS: Readonly<Record<Severity, string>> = {
  shall: 'breaks a SHALL',
  should: 'departs from a SHOULD',
  advice: 'advice',
};

/** One clause of a standard, quoted as published (docs/decisions.md#the-standards says where each was read). */
export interface Clause {
  /** "NIST SP 800-63B-4 §3.1.1.2 item 5", "OWASP ASVS 5.0.0 6.2.5" */
  readonly ref: string;
  readonly quote: string;
}

const NIST = 'NIST SP 800-63B-4 §3.1.1.2';
const ASVS = 'OWASP ASVS 5.0.0';

/** Every clause the lint cites; nothing else is quoted. */
export const CLAUSES = {
  singleFactorLength: {
    ref: `${NIST} item 1`,
    quote:
      'Verifiers and CSPs SHALL require passwords that are used as a single-factor authentication mechanism to be a minimum of 15 characters in length.',
  },
  multiFactorLength: {
    ref: `${NIST} item 1`,
    quote:
      'Verifiers and CSPs MAY allow passwords that are only used as part of multi-factor authentication processes to be shorter but SHALL require them to be a minimum of eight characters in length.',
  },
  maximumLength: {
    ref: `${NIST} item 2`,
    quote: 'Verifiers and CSPs SHOULD permit a maximum password length of at least 64 characters.',
  },
  printableAscii: {
    ref: `${NIST} item 3`,
    quote:
      'Verifiers and CSPs SHOULD accept all printing ASCII [RFC20] characters and the space character in passwords.',
  },
  composition: {
    ref: `${NIST} item 5`,
    quote:
      'Verifiers and CSPs SHALL NOT impose other composition rules (e.g., requiring mixtures of different character types) for passwords.',
  },
  blocklist: {
    ref: `${NIST}, blocklist`,
    quote:
      'verifiers SHALL compare the prospective secret against a blocklist that contains known commonly used, expected, or compromised passwords.',
  },
  asvsLength: {
    ref: `${ASVS} 6.2.1 (L1)`,
    quote:
      'Verify that user set passwords are at least 8 characters in length although a minimum of 15 characters is strongly recommended.',
  },
  asvsComposition: {
    ref: `${ASVS} 6.2.5 (L1)`,
    quote:
      'There must be no requirement for a minimum number of upper or lower case characters, numbers, or special characters.',
  },
  asvsMaximumLength: {
    ref: `${ASVS} 6.2.9 (L2)`,
    quote: 'Verify that passwords of at least 64 characters are permitted.',
  },
  asvsBreached: {
    ref: `${ASVS} 6.2.12 (L2)`,
    quote:
      'Verify that passwords submitted during account registration or password changes are checked against a set of breached passwords.',
  },
  asvsContextWords: {
    ref: `${ASVS} 6.2.11 (L2)`,
    quote:
      'Verify that the documented list of context specific words is used to prevent easy to guess passwords being created.',
  },
  asvsContextWordList: {
    ref: `${ASVS} 6.1.2 (L2)`,
    quote:
      'The list could include permutations of organization names, product names, system identifiers, project codenames, department or role names, and similar.',
  },
  asvsRandomSecret: {
    ref: `${ASVS} 6.5.2 (L2), on look-up secrets`,
    quote: 'A standard hash function can be used if the secret has 112 bits of entropy or more.',
  },
} as const satisfies Record<string, Clause>;

/** NIST's two minimums: 15 characters for a password used alone, 8 for one used only with another factor. */
const SINGLE_FACTOR_MIN_LENGTH = 15;
const MULTI_FACTOR_MIN_LENGTH = 8;
const RECOMMENDED_MAX_LENGTH = 64;
/** The entropy a generated password should reach: the bound of CLAUSES.asvsRandomSecret (our reading, docs/decisions.md). */
export const ENTROPY_BOUND_BITS = 112;

/**
 * The fewest characters a password needs for zxcvbn-ts to give it each score: it never rates a password of n
 * characters above brute force, 10^n guesses (BRUTEFORCE_CARDINALITY 10), and score s needs more than its
 * threshold 10^t (+5), so t + 1 characters ([0, 4, 7, 9, 11]). test/unit/policy-lint.test.ts holds these to the estimator.
 */
export const GUESSABILITY_MIN_LENGTH: readonly number[] = [0, ...GUESS_THRESHOLDS_LOG10.map((t) => t + 1)];

/** What the lint knows of the deployment (docs/administration.md#lint). */
export interface LintContext {
  /** Passwords of these policies are used only with a second factor (NIST's 8-character minimum applies, not 15). */
  readonly multiFactor: boolean;
  /** Whether EvaluatePassword also asks Have I Been Pwned (stack context pwnedPasswordsCheck). */
  readonly pwnedPasswordsCheck: boolean;
  /** True when pwnedPasswordsCheck is the assumed default rather than given. */
  readonly pwnedPasswordsCheckAssumed: boolean;
}

/** The stack's default, in both stage presets (lib/settings.ts; test/unit/policy-lint.test.ts holds them equal). */
export const DEFAULT_PWNED_PASSWORDS_CHECK = false;

export const DEFAULT_LINT_CONTEXT: LintContext = {
  multiFactor: false,
  pwnedPasswordsCheck: DEFAULT_PWNED_PASSWORDS_CHECK,
  pwnedPasswordsCheckAssumed: true,
};

export interface Finding {
  /** The policy's collection and ID; undefined for a deployment-wide finding. */
  readonly collection?: CollectionName;
  readonly id?: number;
  readonly field: string;
  readonly value: unknown;
  readonly severity: Severity;
  /** What the policy does, in one sentence. */
  readonly message: string;
  readonly clauses: readonly Clause[];
  readonly fix: string;
}

// ---------------------------------------------------------------------------------------------------------
// Strength policies
// ---------------------------------------------------------------------------------------------------------

const MINIMUM_FIELDS = [
  'MinimumLowerCaseCharacters',
  'MinimumNumericCharacters',
  'MinimumSymbolCharacters',
  'MinimumUpperCaseCharacters',
] as const;

/** The characters of each class the composition rules demand (RequiresUpperAndLowerCase: one of each case at least). */
export function requiredCounts(p: StrengthPolicy): { upper: number; lower: number; numeric: number; symbol: number } {
  const both = p.RequiresUpperAndLowerCase ? 1 : 0;
  return {
    upper: Math.max(p.MinimumUpperCaseCharacters, both),
    lower: Math.max(p.MinimumLowerCaseCharacters, both),
    numeric: p.MinimumNumericCharacters,
    symbol: p.MinimumSymbolCharacters,
  };
}

/**
 * The shortest password the policy can rate Compliant: the composition rules met, the score's band and the
 * guessability score (GUESSABILITY_MIN_LENGTH: zxcvbn-ts's brute force bounds the estimate) both at
 * PasswordStrengthCompliance. At each length the best password is built greedily (each character goes where
 * it adds most to the score, which is linear in each class up to its target), and scored by the evaluator's
 * own strengthScore. Undefined: none up to 256.
 */
export function shortestCompliantLength(p: StrengthPolicy): number | undefined {
  const need = requiredCounts(p);
  const weights = weightsOf(p);
  const targets = {
    upper: Math.max(p.MinimumUpperCaseCharacters, 1),
    lower: Math.max(p.MinimumLowerCaseCharacters, 1),
    numeric: Math.max(p.MinimumNumericCharacters, 1),
    symbol: Math.max(p.MinimumSymbolCharacters, 1),
  };
  const perCharacter = {
    upper: weights.casing / (2 * targets.upper),
    lower: weights.casing / (2 * targets.lower),
    numeric: weights.numeric / targets.numeric,
    symbol: weights.symbol / targets.symbol,
  };
  const order = (Object.keys(perCharacter) as (keyof typeof perCharacter)[]).sort(
    (a, b) => perCharacter[b] - perCharacter[a],
  );
  const required = need.upper + need.lower + need.numeric + need.symbol;
  const floor = GUESSABILITY_MIN_LENGTH[p.PasswordStrengthCompliance]!;
  for (let length = Math.max(required, floor, 1); length <= MAX_PASSWORD_LENGTH; length += 1) {
    const counts = { ...need };
    let spare = length - required;
    for (const key of order) {
      const add = Math.min(spare, Math.max(targets[key] - counts[key], 0));
      counts[key] += add;
      spare -= add;
    }
    if (scoreBand(strengthScore(p, { length, ...counts })) >= p.PasswordStrengthCompliance) return length;
  }
  return undefined;
}

/** The least PreferredPasswordLength (up to 256) whose shortest compliant password has `length` characters or more. */
function preferredLengthFor(p: StrengthPolicy, length: number): number | undefined {
  for (let preferred = p.PreferredPasswordLength; preferred <= MAX_PASSWORD_LENGTH; preferred += 1) {
    const shortest = shortestCompliantLength({ ...p, PreferredPasswordLength: preferred });
    if (shortest === undefined || shortest >= length) return preferred;
  }
  return undefined;
}

export function lintStrengthPolicy(p: StrengthPolicy, context: LintContext): Finding[] {
  const at = { collection: 'strength' as const, id: p.PasswordStrengthPolicyID };
  const findings: Finding[] = [];
  for (const field of MINIMUM_FIELDS) {
    if (p[field] > 0) {
      findings.push({
        ...at,
        field,
        value: p[field],
        severity: 'shall',
        message: `Requires at least ${p[field]} ${CLASS_WORDS[field]}: a composition rule.`,
        clauses: [CLAUSES.composition, CLAUSES.asvsComposition],
        fix: `Set ${field} to 0.`,
      });
    }
  }
  if (p.RequiresUpperAndLowerCase) {
    findings.push({
      ...at,
      field: 'RequiresUpperAndLowerCase',
      value: true,
      severity: 'shall',
      message: 'Requires both upper-case and lower-case letters: a composition rule.',
      clauses: [CLAUSES.composition, CLAUSES.asvsComposition],
      fix: 'Set RequiresUpperAndLowerCase to false.',
    });
  }
  if (!p.ComplianceMandatory) {
    findings.push({
      ...at,
      field: 'ComplianceMandatory',
      value: false,
      severity: 'shall',
      message: 'A password that is not Compliant may still be kept, so the policy requires no length at all.',
      clauses: [context.multiFactor ? CLAUSES.multiFactorLength : CLAUSES.singleFactorLength],
      fix: 'Set ComplianceMandatory to true.',
    });
  }
  findings.push(...strengthLengthFindings(p, context, at));
  if (p.ComplianceMandatory && p.PasswordStrengthCompliance < STRONG) {
    findings.push({
      ...at,
      field: 'PasswordStrengthCompliance',
      value: p.PasswordStrengthCompliance,
      severity: 'advice',
      message: `${COMPLIANCE_LEVELS[p.PasswordStrengthCompliance]} accepts passwords zxcvbn-ts finds in fewer than 10^${guessThresholdLog10(STRONG)} guesses; only those on the blocklist are refused whatever the level.`,
      clauses: [CLAUSES.blocklist],
      fix: `Set PasswordStrengthCompliance to ${STRONG} (${COMPLIANCE_LEVELS[STRONG]}) or more.`,
    });
  }
  findings.push(...bannedWordFindings(p, at));
  return findings;
}

/**
 * The policy's BannedWords against ASVS 6.2.11, read as the evaluator reads them (contextTerms, the evaluator's
 * own preparation): none at all departs from 6.2.11 (an L2 item NIST only permits: docs/decisions.md#the-standards);
 * an entry the evaluator never matches (fewer than 3 characters once NFKC composes it), or one it reads as an
 * earlier entry (the same after NFKC, case and l33t, so it keeps one term of the two), is advice.
 */
function bannedWordFindings(p: StrengthPolicy, at: { collection: 'strength'; id: number }): Finding[] {
  const words = p.BannedWords ?? [];
  if (words.length === 0) {
    return [
      {
        ...at,
        field: 'BannedWords',
        value: [],
        severity: 'should',
        message:
          "No context-specific words: the evaluation of this policy matches only the terms a request's UserInputs bring.",
        clauses: [CLAUSES.asvsContextWords, CLAUSES.asvsContextWordList],
        fix: "List the organization's own terms in BannedWords in the policy file: its names and products, system identifiers, project codenames, department or role names.",
      },
    ];
  }
  /** The evaluator's terms of some words: none for a word it ignores, one for two words it reads as one. */
  const termsOf = (some: readonly string[]) => contextTerms([], some).groups[0]!;
  /** The kept terms as termGroup writes them (NFKC, lower case), in the order of their first entry. */
  const keptTerms = termsOf(words).words;
  const findings: Finding[] = [];
  const kept: number[] = [];
  words.forEach((word, i) => {
    const entry = { ...at, field: `BannedWords[${i}]`, value: word, severity: 'advice' as const };
    if (termsOf([word]).count === 0) {
      findings.push({
        ...entry,
        message: `Has ${[...word.normalize('NFKC')].length} character(s) once NFKC composes it; the evaluator ignores terms of fewer than 3, so it never matches.`,
        clauses: [CLAUSES.asvsContextWords],
        fix: `Write BannedWords[${i}] with 3 characters or more after NFKC, or delete it.`,
      });
      return;
    }
    if (keptTerms[kept.length] === word.normalize('NFKC').toLowerCase()) {
      kept.push(i);
      return;
    }
    // A word the evaluator dropped as a repeat: the earlier entry it reads the same as.
    const same = kept.find((k) => termsOf([words[k]!, word]).count === 1);
    if (same === undefined) return;
    findings.push({
      ...entry,
      message: `Reads as BannedWords[${same}] ${quoted(words[same]!)} once NFKC, case and l33t are read: the evaluator keeps one term of the two, and already tries these permutations itself.`,
      clauses: [CLAUSES.asvsContextWordList],
      fix: `Delete BannedWords[${i}].`,
    });
  });
  return findings;
}

const CLASS_WORDS: Record<(typeof MINIMUM_FIELDS)[number], string> = {
  MinimumLowerCaseCharacters: 'lower-case letter(s)',
  MinimumNumericCharacters: 'digit(s)',
  MinimumSymbolCharacters: 'symbol(s)',
  MinimumUpperCaseCharacters: 'upper-case letter(s)',
};

function strengthLengthFindings(
  p: StrengthPolicy,
  context: LintContext,
  at: { collection: 'strength'; id: number },
): Finding[] {
  const shortest = shortestCompliantLength(p);
  if (shortest === undefined) return [];
  const severity = lengthSeverity(shortest, context);
  if (severity === undefined) return [];
  const wanted = targetLength(shortest, context);
  const preferred = preferredLengthFor(p, wanted);
  const fix =
    preferred === undefined
      ? `The length weighting (${weightsOf(p).length} of 100) is too small for length to decide compliance: raise it, then PreferredPasswordLength.`
      : `Set PreferredPasswordLength to ${preferred} (the shortest Compliant password then has ${wanted} characters or more).`;
  return [
    {
      ...at,
      field: 'PreferredPasswordLength',
      value: p.PreferredPasswordLength,
      severity,
      message: `A password of ${shortest} characters can be Compliant (${COMPLIANCE_LEVELS[p.PasswordStrengthCompliance]}): PreferredPasswordLength is scored, not required.`,
      clauses: lengthClauses(shortest, context),
      fix,
    },
  ];
}

/** How a shortest accepted (or generated) length stands against the two minimums. */
function lengthSeverity(length: number, context: LintContext): Severity | undefined {
  if (length < MULTI_FACTOR_MIN_LENGTH) return 'shall';
  if (length < SINGLE_FACTOR_MIN_LENGTH) return context.multiFactor ? 'should' : 'shall';
  return undefined;
}

/** The length a fix aims at: 8 for a multi-factor password below it (the SHALL), else 15. */
function targetLength(length: number, context: LintContext): number {
  return context.multiFactor && length < MULTI_FACTOR_MIN_LENGTH ? MULTI_FACTOR_MIN_LENGTH : SINGLE_FACTOR_MIN_LENGTH;
}

/** The minimum that applies under the context's assumption (15 alone, 8 with a second factor), and ASVS's. */
function lengthClauses(length: number, context: LintContext): Clause[] {
  if (!context.multiFactor) return [CLAUSES.singleFactorLength, CLAUSES.asvsLength];
  return length < MULTI_FACTOR_MIN_LENGTH ? [CLAUSES.multiFactorLength, CLAUSES.asvsLength] : [CLAUSES.asvsLength];
}

// ---------------------------------------------------------------------------------------------------------
// Generator policies
// ---------------------------------------------------------------------------------------------------------

/** The shortest and longest password a generator policy generates, in characters (Unicode code points). */
export function generatedLengths(p: GeneratorPolicy): { shortest: number; longest: number } {
  const wordLengths = () => {
    const lengths = eligibleWords(WORD_LIST, p).map((w) => [...w].length);
    return { shortest: Math.min(...lengths), longest: Math.max(...lengths) };
  };
  switch (generationMode(p)) {
    case 'pattern': {
      const tokens = parsePattern(p.Pattern) as PatternToken[];
      const word = tokens.some((t) => t.kind === 'w') ? wordLengths() : { shortest: 0, longest: 0 };
      const sum = (pick: (t: PatternToken) => number) => tokens.reduce((n, t) => n + t.count * pick(t), 0);
      return {
        shortest: sum((t) => (t.kind === 'w' ? word.shortest : 1)),
        longest: sum((t) => (t.kind === 'w' ? word.longest : 1)),
      };
    }
    case 'words':
    case 'words+alpha': {
      const segments = !p.IncludeAlphaSpecial ? 0 : p.PrefixAppendWords === 'I' ? p.NumberOfWords - 1 : 1;
      const word = wordLengths();
      const fixed =
        segments * classesOn(p).length + (p.NumberOfWords + segments - 1) * SEPARATORS[p.SeparateWordsWith].length;
      return { shortest: p.NumberOfWords * word.shortest + fixed, longest: p.NumberOfWords * word.longest + fixed };
    }
    default:
      return { shortest: p.MinLength, longest: p.MaxLength };
  }
}

/** The field that sets a generator policy's length in its mode, as a finding names it. */
function lengthField(p: GeneratorPolicy): { field: string; value: unknown } {
  switch (generationMode(p)) {
    case 'pattern':
      return { field: 'Pattern', value: p.Pattern };
    case 'words':
    case 'words+alpha':
      return { field: 'NumberOfWords', value: p.NumberOfWords };
    default:
      return { field: 'MinLength', value: p.MinLength };
  }
}

/** The change to the length field that makes `reaches` true, as a fix sentence, or undefined when none does. */
function lengthFix(p: GeneratorPolicy, reaches: (q: GeneratorPolicy) => boolean): string | undefined {
  const mode = generationMode(p);
  if (mode === 'alpha') {
    for (let min = p.MinLength; min <= MAX_PASSWORD_LENGTH; min += 1) {
      const q = { ...p, MinLength: min, MaxLength: Math.max(p.MaxLength, min) };
      if (reaches(q))
        return q.MaxLength === p.MaxLength
          ? `Set MinLength to ${min}.`
          : `Set MinLength and MaxLength to at least ${min}.`;
    }
  } else if (mode === 'words' || mode === 'words+alpha') {
    for (let n = p.NumberOfWords; n <= 20; n += 1)
      if (reaches({ ...p, NumberOfWords: n })) return `Set NumberOfWords to ${n}.`;
  }
  return undefined;
}

const roundDown = (bits: number) => Math.floor(bits * 10) / 10;

export function lintGeneratorPolicy(p: GeneratorPolicy, context: LintContext): Finding[] {
  const at = { collection: 'generator' as const, id: p.PasswordGeneratorID };
  const findings: Finding[] = [];
  const { shortest } = generatedLengths(p);
  const severity = lengthSeverity(shortest, context);
  if (severity !== undefined) {
    const wanted = targetLength(shortest, context);
    findings.push({
      ...at,
      ...lengthField(p),
      severity,
      message: `Generates passwords of ${shortest} characters.`,
      clauses: lengthClauses(shortest, context),
      fix:
        lengthFix(p, (q) => generatedLengths(q).shortest >= wanted) ??
        `Lengthen the pattern to ${wanted} characters or more.`,
    });
  }
  if (generationMode(p) === 'alpha' && p.MaxLength < RECOMMENDED_MAX_LENGTH) {
    findings.push({
      ...at,
      field: 'MaxLength',
      value: p.MaxLength,
      severity: 'should',
      message: `Generates at most ${p.MaxLength} characters; if that is the limit of the system that takes these passwords, that system does not permit ${RECOMMENDED_MAX_LENGTH}.`,
      clauses: [CLAUSES.maximumLength, CLAUSES.asvsMaximumLength],
      fix: `Set MaxLength to ${RECOMMENDED_MAX_LENGTH} or more, where the system that takes these passwords permits it.`,
    });
  }
  const bits = entropyBits(p, WORD_LIST);
  if (bits < ENTROPY_BOUND_BITS) {
    findings.push({
      ...at,
      ...lengthField(p),
      severity: 'advice',
      message: `Entropy ≥ ${roundDown(bits).toFixed(1)} bits, below ${ENTROPY_BOUND_BITS}: a stolen fast hash of such a password can be searched.`,
      clauses: [CLAUSES.asvsRandomSecret],
      fix:
        lengthFix(p, (q) => entropyBits(q, WORD_LIST) >= ENTROPY_BOUND_BITS) ??
        `Lengthen the pattern (each "a" or "w" adds the most).`,
    });
  }
  findings.push(...exclusionFindings(p, bits, at));
  return findings;
}

/** The characters the classes switched on draw from, all classes together. */
function alphabet(p: GeneratorPolicy): Set<string> {
  return new Set(classesOn(p).flatMap((c) => c.chars));
}

function exclusionFindings(p: GeneratorPolicy, bits: number, at: { collection: 'generator'; id: number }): Finding[] {
  const findings: Finding[] = [];
  /** What the exclusion costs, or undefined when it removes nothing the policy would draw. */
  const shrink = (without: GeneratorPolicy) => {
    const lost = roundDown(entropyBits(without, WORD_LIST) - bits);
    const [now, then] = [alphabet(p).size, alphabet(without).size];
    if (lost <= 0 && now === then) return undefined;
    return `the alphabet has ${now} characters instead of ${then}, ${lost.toFixed(1)} bits less`;
  };
  const excluded = p.ExcludeChars === '' ? undefined : shrink({ ...p, ExcludeChars: '' });
  if (excluded !== undefined) {
    findings.push({
      ...at,
      field: 'ExcludeChars',
      value: p.ExcludeChars,
      severity: 'should',
      message: `Never generates ${quoted(p.ExcludeChars)}: ${excluded}. If the system that takes these passwords refuses these characters, that system does not accept all printing ASCII.`,
      clauses: [CLAUSES.printableAscii],
      fix: 'Empty ExcludeChars, unless the system that takes these passwords refuses these characters.',
    });
  }
  const ambiguous = p.AmbiguousChars ? undefined : shrink({ ...p, AmbiguousChars: true });
  if (ambiguous !== undefined) {
    findings.push({
      ...at,
      field: 'AmbiguousChars',
      value: false,
      severity: 'advice',
      message: `Never generates ${[...AMBIGUOUS_CHARS].join(' ')}: ${ambiguous}.`,
      clauses: [CLAUSES.printableAscii],
      fix: 'Set AmbiguousChars to true, unless people read these passwords off paper or a screen and type them.',
    });
  }
  return findings;
}

// ---------------------------------------------------------------------------------------------------------
// The deployment, and whole collections
// ---------------------------------------------------------------------------------------------------------

/** Findings about the deployment rather than one policy: they concern how every strength policy is evaluated. */
export function lintDeployment(context: LintContext): Finding[] {
  if (context.pwnedPasswordsCheck) return [];
  return [
    {
      field: 'pwnedPasswordsCheck',
      value: false,
      severity: 'advice',
      message: `The online Pwned Passwords check is off${context.pwnedPasswordsCheckAssumed ? ' (assumed: the stack default; --pwned-passwords-check true says otherwise)' : ''}: evaluation checks breached passwords against the offline blocklist only, which meets 6.2.12 with a smaller set.`,
      clauses: [CLAUSES.asvsBreached],
      fix: 'Deploy with -c pwnedPasswordsCheck=true for the full Pwned Passwords set (docs/evaluation.md#the-online-breached-password-check).',
    },
  ];
}

/** The findings of one policy of a collection. */
export function lintPolicy(collection: CollectionName, policy: object, context: LintContext): Finding[] {
  return collection === 'generator'
    ? lintGeneratorPolicy(policy as GeneratorPolicy, context)
    : lintStrengthPolicy(policy as StrengthPolicy, context);
}

/** Every finding of a collection's policies, policy by policy, then (for strength policies) the deployment's. */
export function lintPolicies(collection: CollectionName, policies: readonly object[], context: LintContext): Finding[] {
  return [
    ...policies.flatMap((p) => lintPolicy(collection, p, context)),
    ...(collection === 'strength' ? lintDeployment(context) : []),
  ];
}

export function breaksShall(findings: readonly Finding[]): boolean {
  return findings.some((f) => f.severity === 'shall');
}

/** The worst severity of some findings, or undefined for none. */
export function worstSeverity(findings: readonly Finding[]): Severity | undefined {
  return (['shall', 'should', 'advice'] as const).find((s) => findings.some((f) => f.severity === s));
}

// ---------------------------------------------------------------------------------------------------------
// Text
// ---------------------------------------------------------------------------------------------------------

/** One finding as the operator reads it: a heading line, each clause with its quotation, the fix; a value as the plan shows it (shownJson). */
export function formatFinding(f: Finding): string {
  return [
    `  [${SEVERITY_LABELS[f.severity]}] ${f.field}: ${shownJson(f.value)}. ${f.message}`,
    ...f.clauses.map((c) => `      ${c.ref}: "${c.quote}"`),
    `      Fix: ${f.fix}`,
  ].join('\n');
}

/** The findings grouped under a heading line each (`heading` names a finding's policy, or the deployment). */
export function formatFindings(findings: readonly Finding[], heading: (f: Finding) => string): string {
  const groups = new Map<string, Finding[]>();
  for (const f of findings) groups.set(heading(f), [...(groups.get(heading(f)) ?? []), f]);
  return [...groups].map(([title, list]) => `${[title, ...list.map(formatFinding)].join('\n')}\n`).join('');
}

/** `Lint: 10 strength policy(s), 62 finding(s): 51 break a SHALL, 10 depart from a SHOULD, 1 advice.` */
export function lintSummary(findings: readonly Finding[], policies: number, title: string): string {
  const count = (s: Severity) => findings.filter((f) => f.severity === s).length;
  return `Lint: ${policies} ${title}(s), ${findings.length} finding(s): ${count('shall')} break a SHALL, ${count('should')} depart from a SHOULD, ${count('advice')} advice.`;
}
