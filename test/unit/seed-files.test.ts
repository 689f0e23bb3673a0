import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { validatePolicy, type PolicyResource } from '../../functions/domain/policy-collection';
import { generatorPolicies } from '../../functions/domain/generator-policy';
import { DEFAULT_CALCULATION_WEIGHTINGS, strengthPolicies } from '../../functions/domain/strength-policy';
import { readSeedFile } from '../../seed/seed-data';

const SEED_DIR = path.join(__dirname, '../../seed');

/** Each committed seed file with the resource it holds. */
const files: [string, PolicyResource<object>][] = [
  ['generator-policies.json', generatorPolicies as PolicyResource<object>],
  ['strength-policies.json', strengthPolicies as PolicyResource<object>],
];

describe.each(files)('seed/%s', (file, resource) => {
  const records = JSON.parse(readFileSync(path.join(SEED_DIR, file), 'utf8')) as Record<string, unknown>[];
  const ids = records.map((r) => r[resource.idField]);

  it('holds at least 8 records', () => {
    expect(records.length).toBeGreaterThanOrEqual(8);
  });

  it('has only valid records', () => {
    const problems = records.flatMap((r) => {
      const result = validatePolicy(resource, r);
      return result.ok ? [] : [`${String(r[resource.idField])}: ${result.problems.join('; ')}`];
    });
    expect(problems).toEqual([]);
  });

  it('lists every field of the specification in its order in every record', () => {
    for (const record of records) expect(Object.keys(record)).toEqual(resource.fields);
  });

  it('has unique IDs numbered 1..N', () => {
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort((a, b) => (a as number) - (b as number))).toEqual(records.map((_, i) => i + 1));
  });

  it('has the default policy as ID 1, described as the default for password lists without a specific policy', () => {
    const first = records.find((r) => r[resource.idField] === 1)!;
    expect(String(first[resource.nameField])).toMatch(/default/i);
    expect(String(first[resource.descriptionField])).toMatch(/default .*for password lists without a specific policy/i);
  });

  it('passes readSeedFile', async () => {
    await expect(readSeedFile(path.join(SEED_DIR, file), resource)).resolves.toHaveLength(records.length);
  });
});

describe('seed/strength-policies.json default', () => {
  it('uses the default calculation weightings', () => {
    const records = JSON.parse(readFileSync(path.join(SEED_DIR, 'strength-policies.json'), 'utf8')) as Record<
      string,
      unknown
    >[];
    expect(records.find((r) => r.PasswordStrengthPolicyID === 1)!.CalculationWeightings).toBe(
      DEFAULT_CALCULATION_WEIGHTINGS,
    );
  });
});

describe('seed/generator-policies.json coverage', () => {
  const records = JSON.parse(readFileSync(path.join(SEED_DIR, 'generator-policies.json'), 'utf8')) as Record<
    string,
    unknown
  >[];

  it('includes a word-phrase policy, a digits-only PIN policy and a pattern policy', () => {
    expect(records.some((r) => r.IncludeWordPhrases === true)).toBe(true);
    expect(
      records.some(
        (r) => r.NumericChars && !r.LowerCaseChars && !r.UpperCaseChars && !r.SpecialChars && !r.BracketChars,
      ),
    ).toBe(true);
    expect(records.some((r) => r.GeneratePattern === true && r.Pattern !== '')).toBe(true);
  });
});
