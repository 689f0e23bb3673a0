import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { GeneratorPolicy } from '../../functions/domain/generator-policy';
import type { StrengthPolicy } from '../../functions/domain/strength-policy';
import type { LocalCredentials } from '../../local/demo-credentials';
import { PROJECT_ROOT } from './local-service';

/**
 * The seed data and the search rules (docs/api.md#search), read independently of the product code: what a correct
 * service answers for the seed collections.
 */
export type Policy = Record<string, unknown>;

export interface SeedCollection {
  readonly path: string;
  readonly group: 'userapi' | 'api';
  readonly idField: string;
  readonly nameField: string;
  readonly descriptionField: string;
  readonly policies: readonly Policy[];
}

function readSeed(file: string, idField: string): Policy[] {
  const policies = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'seed', file), 'utf8')) as Policy[];
  return [...policies].sort((a, b) => (a[idField] as number) - (b[idField] as number));
}

export const SEED_GENERATOR: SeedCollection = {
  path: '/userapi/passwordgenerator',
  group: 'userapi',
  idField: 'PasswordGeneratorID',
  nameField: 'GeneratorName',
  descriptionField: 'GeneratorDescription',
  policies: readSeed('generator-policies.json', 'PasswordGeneratorID'),
};

export const SEED_STRENGTH: SeedCollection = {
  path: '/api/passwordstrength',
  group: 'api',
  idField: 'PasswordStrengthPolicyID',
  nameField: 'PolicyName',
  descriptionField: 'PolicyDescription',
  policies: readSeed('strength-policies.json', 'PasswordStrengthPolicyID'),
};

/** The seed's generator policies, typed as the service reads them, ordered by identifier. */
export const SEED_GENERATOR_POLICIES = SEED_GENERATOR.policies as unknown as readonly GeneratorPolicy[];

/** The seed's strength policies, typed as the service reads them, ordered by identifier. */
export const SEED_STRENGTH_POLICIES = SEED_STRENGTH.policies as unknown as readonly StrengthPolicy[];

/** The seed's strength policy of that identifier. */
export function seedStrengthPolicy(id: number): StrengthPolicy {
  const policy = SEED_STRENGTH_POLICIES.find((p) => p.PasswordStrengthPolicyID === id);
  if (!policy) throw new Error(`the seed has no strength policy ${id}`);
  return policy;
}

/** The search rule (docs/api.md#search), written out independently: NFKC, lower case, ß/ẞ as "ss", final ς as σ, NFKC again. */
const referenceFold = (s: string): string =>
  s.normalize('NFKC').toLowerCase().split('ß').join('ss').split('ς').join('σ').normalize('NFKC');

/** The folded, trimmed query: undefined when it is over 256 characters (a 400). */
export function referenceQuery(text: string): string | undefined {
  const query = referenceFold(text).trim();
  return [...query].length > 256 ? undefined : query;
}

/** NFKC, lower case, trim; empty, blank or "*" is everything; else every term in the name or the description. */
export function referenceSearch(c: SeedCollection, text: string): Policy[] {
  const query = referenceFold(text).trim();
  if (query === '' || query === '*') return [...c.policies];
  const terms = query.split(/\s+/u);
  return c.policies.filter((p) =>
    terms.every(
      (t) =>
        referenceFold(String(p[c.nameField])).includes(t) || referenceFold(String(p[c.descriptionField])).includes(t),
    ),
  );
}

/** seed/local-credentials.json, the demo credentials of the local run. */
export const LOCAL_CREDENTIALS = JSON.parse(
  readFileSync(path.join(PROJECT_ROOT, 'seed', 'local-credentials.json'), 'utf8'),
) as LocalCredentials;
