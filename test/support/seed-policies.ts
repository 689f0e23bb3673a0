import { generatorPolicies, type GeneratorPolicy } from '../../functions/domain/generator-policy';
import { strengthPolicies, type StrengthPolicy } from '../../functions/domain/strength-policy';
import { DEFAULT_GENERATOR_FILE, DEFAULT_STRENGTH_FILE, readSeedFile } from '../../seed/seed-data';

/** The seed files' policies as the product reads them (seed/seed-data.ts: validated, in the files' order). */
export interface SeedPolicies {
  readonly strength: StrengthPolicy[];
  readonly generator: GeneratorPolicy[];
}

/**
 * The seed policies for a whole test file: registers a beforeAll hook that reads both seed files into the object
 * it returns. Call it at the top level of the file, and read the policies inside a test or hook (before the hook
 * has run they are undefined, as a variable a beforeAll sets is).
 */
export function useSeedPolicies(): SeedPolicies {
  const seed = {} as { strength: StrengthPolicy[]; generator: GeneratorPolicy[] };
  beforeAll(async () => {
    seed.strength = await readSeedFile(DEFAULT_STRENGTH_FILE, strengthPolicies);
    seed.generator = await readSeedFile(DEFAULT_GENERATOR_FILE, generatorPolicies);
  });
  return seed;
}
