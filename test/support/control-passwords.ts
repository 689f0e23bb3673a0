import fc from 'fast-check';
import type { GeneratorPolicy } from '../../functions/domain/generator-policy';
import { generatePassword } from '../../functions/domain/password-generator';
import type { StrengthPolicy } from '../../functions/domain/strength-policy';
import { WORD_LIST } from '../../functions/domain/word-list';
import { seeded } from '../../testkit/seeded-random';
import { assertProperty } from './property';
import { SEED_GENERATOR_POLICIES, seedStrengthPolicy } from './seed-reference';

/*
 * The passwords the evaluation's properties hold up as controls, made as the advice says (a passphrase of random
 * words, a password manager's output): whatever the evaluation adds must leave their levels alone.
 */

/** Five random words of the EFF list the generator uses, joined by a space, a hyphen, a dot or an underscore. */
const fiveWordPassphrase = fc
  .tuple(fc.array(fc.constantFrom(...WORD_LIST), { minLength: 5, maxLength: 5 }), fc.constantFrom(' ', '-', '.', '_'))
  .map(([words, separator]) => words.join(separator));

/** The passwords a generator policy makes, as the service generates them, each from a seed fast-check draws. */
const generatedPassword = (generator: GeneratorPolicy): fc.Arbitrary<string> =>
  fc.integer().map((seed) => generatePassword(generator, WORD_LIST, seeded(seed)));

/** What the controls of a property hold, and how many cases of each it runs. */
export interface Controls {
  /** What `keepsItsLevel` holds, for the tests' names. */
  readonly what: string;
  /** Fails (throws) where the password's evaluation under one of the policies is not what the property holds. */
  readonly keepsItsLevel: (password: string, policies: readonly StrengthPolicy[]) => void;
  /** The policies the generated passwords are evaluated under; the passphrases also under policy 8, Passphrases. */
  readonly policies: readonly StrengthPolicy[];
  /** The seed generator policies of at least `minLength` characters, which are the policies `ids`. */
  readonly generators: { readonly minLength: number; readonly ids: readonly number[]; readonly runs: number };
  readonly passphraseRuns: number;
}

/**
 * The control tests of an evaluation property: five-word passphrases, a test that the long seed generator
 * policies are the ones expected (a change of the seed that adds or drops one shows), and the passwords of each.
 */
export function testControls(controls: Controls): void {
  const { what, keepsItsLevel, policies, generators } = controls;
  const withPassphrases = [...policies, seedStrengthPolicy(8)];
  const ids = withPassphrases.map((p) => p.PasswordStrengthPolicyID);
  it(`five-word passphrases under policies ${ids.slice(0, -1).join(', ')} and ${ids.at(-1)}: ${what}`, async () => {
    await assertProperty(
      `five-word passphrase: ${what}`,
      fc.property(fiveWordPassphrase, (passphrase) => keepsItsLevel(passphrase, withPassphrases)),
      controls.passphraseRuns,
    );
  });

  const long = SEED_GENERATOR_POLICIES.filter((g) => g.MinLength >= generators.minLength);
  it(`covers the ${generators.ids.length} seed generator policies of ${generators.minLength} characters or more`, () => {
    expect(long.map((g) => g.PasswordGeneratorID)).toEqual(generators.ids);
  });
  it.each(long.map((g) => [g.PasswordGeneratorID, g.MinLength, g] as const))(
    `generator policy %i (at least %i characters): ${what}`,
    async (id, _minLength, generator) => {
      await assertProperty(
        `passwords of generator ${id}: ${what}`,
        fc.property(generatedPassword(generator), (password) => keepsItsLevel(password, policies)),
        generators.runs,
      );
    },
  );
}
