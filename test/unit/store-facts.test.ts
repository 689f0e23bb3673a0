/**
 * Facts with one home that something else still has to agree with, where an import cannot tie them: the
 * credentials item's attribute names (functions/repositories/credentials.ts) against the table's key
 * (functions/repositories/tables.ts, which the authorizer's bundle must not carry) and the items written;
 * the seed file paths (store/seed-files.ts) against the files committed, and their default policy.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { generatorPolicies } from '../../functions/domain/generator-policy';
import { DEFAULT_POLICY_ID } from '../../functions/domain/policy-collection';
import { strengthPolicies } from '../../functions/domain/strength-policy';
import {
  CREDENTIAL_ATTRIBUTES,
  KEY_ATTRIBUTES,
  storedKey,
  systemKeysItem,
  USER_CREDENTIAL_PREFIX,
  userCredentialId,
  userItem,
} from '../../functions/repositories/credentials';
import { TABLES } from '../../functions/repositories/tables';
import { SEED_FILES } from '../../store/seed-files';

describe('the credentials item', () => {
  /** Any time: an item's attributes do not depend on when it is written. */
  const WRITTEN_AT = '2026-01-01T00:00:00.000Z';

  it('is keyed by the attribute the table is created with', () => {
    expect(TABLES.credentials.partitionKey).toBe(CREDENTIAL_ATTRIBUTES.credentialId);
  });

  it('is written with exactly the named attributes: a user item all of them, a system keys item its id and the two maps', () => {
    expect(Object.keys(userItem('alice', [], WRITTEN_AT)).sort()).toEqual(Object.values(CREDENTIAL_ATTRIBUTES).sort());
    expect(Object.keys(systemKeysItem('strength')).sort()).toEqual(
      [CREDENTIAL_ATTRIBUTES.credentialId, CREDENTIAL_ATTRIBUTES.keys, CREDENTIAL_ATTRIBUTES.lastUsed].sort(),
    );
    expect(Object.keys(storedKey('d', WRITTEN_AT)).sort()).toEqual(
      [KEY_ATTRIBUTES.createdAt, KEY_ATTRIBUTES.digest].sort(),
    );
  });

  it('names a user by the prefix and its UserID, so the CLI reads the UserID back from a CredentialID', () => {
    const id = userCredentialId('alice');
    expect(id).toBe('USER#alice');
    expect(id.startsWith(USER_CREDENTIAL_PREFIX) && id.slice(USER_CREDENTIAL_PREFIX.length)).toBe('alice');
  });
});

describe('the seed files', () => {
  it('are the files committed in seed/', () => {
    const root = path.join(__dirname, '..', '..');
    expect(Object.values(SEED_FILES).map((file) => path.relative(root, file))).toEqual([
      'seed/generator-policies.json',
      'seed/strength-policies.json',
      'seed/local-credentials.json',
    ]);
    for (const file of Object.values(SEED_FILES)) expect(() => readFileSync(file)).not.toThrow();
  });

  it.each([
    [SEED_FILES.generator, generatorPolicies.idField],
    [SEED_FILES.strength, strengthPolicies.idField],
  ])('%s holds the default policy', (file, idField) => {
    const records = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>[];
    expect(records.filter((r) => r[idField] === DEFAULT_POLICY_ID)).toHaveLength(1);
  });
});
