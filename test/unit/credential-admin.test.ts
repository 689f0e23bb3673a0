/**
 * The credentials library with DynamoDB mocked: the conditional expressions it sends, how a failed condition
 * becomes an operator error (or a retry), and that no error or listing carries a key or a digest.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { CredentialAdmin, CredentialAdminError, newUserItem } from '../../admin/credential-admin';
import { systemKeysItem } from '../../functions/repositories/credentials';
import { GENERATOR_ADMIN_ROLE } from '../../functions/routes';

const dynamo = mockClient(DynamoDBDocumentClient);
const client = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'local' }));
const NOW = new Date('2026-11-21T10:00:00.000Z');
const admin = () => new CredentialAdmin(client, 'CredTable', () => NOW);

const conditionFailed = () =>
  Object.assign(new Error('The conditional request failed'), { name: 'ConditionalCheckFailedException' });
const user = (overrides: Record<string, unknown> = {}) => ({
  ...newUserItem('alice', [GENERATOR_ADMIN_ROLE], NOW.toISOString()),
  ...overrides,
});
const updates = () => dynamo.commandCalls(UpdateCommand).map((call) => call.args[0].input);

beforeEach(() => dynamo.reset());

describe('item builders', () => {
  it('build the items the authorizer reads, with unique roles and the LastUsed map it writes into', () => {
    expect(newUserItem('alice', ['a', 'b', 'a'], 'T')).toEqual({
      CredentialID: 'USER#alice',
      UserID: 'alice',
      Roles: ['a', 'b'],
      Disabled: false,
      CreatedAt: 'T',
      Keys: {},
      LastUsed: {},
    });
    expect(systemKeysItem('strength')).toEqual({ CredentialID: 'STRENGTH_KEYS', Keys: {}, LastUsed: {} });
  });
});

describe('createUser', () => {
  it('puts the item only if absent', async () => {
    dynamo.on(PutCommand).resolves({});
    await admin().createUser('alice', [GENERATOR_ADMIN_ROLE]);
    expect(dynamo.commandCalls(PutCommand)[0]!.args[0].input).toEqual({
      TableName: 'CredTable',
      Item: user(),
      ConditionExpression: 'attribute_not_exists(#id)',
      ExpressionAttributeNames: { '#id': 'CredentialID' },
    });
  });

  it('turns a failed condition into "already exists"', async () => {
    dynamo.on(PutCommand).rejects(conditionFailed());
    await expect(admin().createUser('alice')).rejects.toThrow(new CredentialAdminError('User "alice" already exists.'));
  });

  it('validates before any call, without echoing the value', async () => {
    const pasted = 'ppg_0123456789ab_not a user id';
    const error = await admin()
      .createUser(pasted)
      .catch((e: unknown) => e as Error);
    expect(error).toBeInstanceOf(CredentialAdminError);
    expect(error!.message).not.toContain('ppg_');
    await expect(admin().createUser('ok', ['tab\there'])).rejects.toThrow(CredentialAdminError);
    expect(dynamo.calls()).toHaveLength(0);
  });

  it('passes on an AWS failure as it is', async () => {
    dynamo.on(PutCommand).rejects(
      Object.assign(new Error('Throughput exceeds the current capacity'), {
        name: 'ProvisionedThroughputExceededException',
      }),
    );
    await expect(admin().createUser('alice')).rejects.toMatchObject({ name: 'ProvisionedThroughputExceededException' });
  });
});

describe('issueUserKey', () => {
  it('makes sure both maps exist, then adds the digest only if the user exists, is enabled and the key id is new', async () => {
    dynamo.on(UpdateCommand).resolves({});
    const { key, keyId } = await admin().issueUserKey('alice');

    const [ensure, add] = updates();
    expect(ensure).toMatchObject({
      Key: { CredentialID: 'USER#alice' },
      UpdateExpression: 'SET #keys = if_not_exists(#keys, :empty), #lastUsed = if_not_exists(#lastUsed, :empty)',
      ConditionExpression: 'attribute_exists(#id)',
    });
    expect(add).toEqual({
      TableName: 'CredTable',
      Key: { CredentialID: 'USER#alice' },
      UpdateExpression: 'SET #keys.#keyId = :key',
      ConditionExpression:
        'attribute_exists(#id) AND (attribute_not_exists(#disabled) OR #disabled = :false) AND attribute_not_exists(#keys.#keyId)',
      ExpressionAttributeNames: { '#id': 'CredentialID', '#disabled': 'Disabled', '#keys': 'Keys', '#keyId': keyId },
      ExpressionAttributeValues: {
        ':false': false,
        ':key': { Digest: expect.stringMatching(/^[0-9a-f]{64}$/), CreatedAt: NOW.toISOString() },
      },
    });
    expect(JSON.stringify(add)).not.toContain(key);
  });

  it('reports an unknown user from the first condition', async () => {
    dynamo.on(UpdateCommand).rejects(conditionFailed());
    await expect(admin().issueUserKey('bob')).rejects.toThrow(new CredentialAdminError('User "bob" does not exist.'));
    expect(updates()).toHaveLength(1);
  });

  it('reports a disabled user, read back after the condition failed', async () => {
    dynamo.on(UpdateCommand).resolvesOnce({}).rejects(conditionFailed());
    dynamo.on(GetCommand).resolves({ Item: user({ Disabled: true }) });
    await expect(admin().issueUserKey('alice')).rejects.toThrow(
      'User "alice" is disabled; enable it before issuing a key.',
    );
  });

  it('draws a new key when the key id collided with a live one', async () => {
    dynamo.on(UpdateCommand).resolvesOnce({}).rejectsOnce(conditionFailed()).resolves({});
    dynamo.on(GetCommand).resolves({ Item: user() });
    const { keyId } = await admin().issueUserKey('alice');
    const [, first, second] = updates();
    expect(second!.ExpressionAttributeNames).toMatchObject({ '#keyId': keyId });
    expect(first!.ExpressionAttributeNames!['#keyId']).not.toBe(keyId);
  });
});

describe('issueStrengthKey', () => {
  it('creates the item and its maps on the first key, then adds the digest', async () => {
    dynamo.on(UpdateCommand).resolves({});
    await admin().issueSystemKey('strength');
    const [ensure, add] = updates();
    expect(ensure).toMatchObject({
      Key: { CredentialID: 'STRENGTH_KEYS' },
      UpdateExpression: expect.stringContaining('if_not_exists(#keys, :empty)'),
    });
    expect(ensure).not.toHaveProperty('ConditionExpression');
    expect(add).toMatchObject({
      UpdateExpression: 'SET #keys.#keyId = :key',
      ConditionExpression: 'attribute_not_exists(#keys.#keyId)',
    });
  });
});

describe('revoking keys', () => {
  it('removes the key and its last-used date, only if the key exists', async () => {
    dynamo.on(UpdateCommand).resolves({});
    await admin().revokeUserKey('alice', '0123456789ab');
    expect(updates()[1]).toMatchObject({
      UpdateExpression: 'REMOVE #keys.#keyId, #lastUsed.#keyId',
      ConditionExpression: 'attribute_exists(#keys.#keyId)',
      ExpressionAttributeNames: { '#keys': 'Keys', '#lastUsed': 'LastUsed', '#keyId': '0123456789ab' },
    });
  });

  it('reports an unknown key id, and an unknown user', async () => {
    dynamo.on(UpdateCommand).resolvesOnce({}).rejects(conditionFailed());
    await expect(admin().revokeUserKey('alice', '0123456789ab')).rejects.toThrow(
      'User "alice" has no key with id 0123456789ab.',
    );
    dynamo.reset();
    dynamo.on(UpdateCommand).rejects(conditionFailed());
    await expect(admin().revokeUserKey('bob', '0123456789ab')).rejects.toThrow('User "bob" does not exist.');
    await expect(admin().revokeSystemKey('strength', '0123456789ab')).rejects.toThrow(
      'There is no password strength key with id 0123456789ab.',
    );
  });

  it('refuses a malformed key id before any call', async () => {
    await expect(admin().revokeSystemKey('strength', 'pps_0123456789ab_secret')).rejects.toThrow(
      /key id is the 12 hexadecimal characters/,
    );
    expect(dynamo.calls()).toHaveLength(0);
  });
});

describe('roles', () => {
  it('grant appends the role only if the user exists and lacks it; an already-held role is not an error', async () => {
    dynamo.on(UpdateCommand).rejects(conditionFailed());
    dynamo.on(GetCommand).resolves({ Item: user() });
    await admin().grantRole('alice', GENERATOR_ADMIN_ROLE);
    expect(updates()[0]).toMatchObject({
      UpdateExpression: 'SET #roles = list_append(if_not_exists(#roles, :none), :role)',
      ConditionExpression: 'attribute_exists(#id) AND NOT contains(#roles, :name)',
    });
  });

  it('revoke removes by index, conditional on the index still holding the role, and retries when the list moved', async () => {
    dynamo
      .on(GetCommand)
      .resolvesOnce({ Item: user({ Roles: ['Auditor', GENERATOR_ADMIN_ROLE] }) })
      .resolves({ Item: user({ Roles: [GENERATOR_ADMIN_ROLE] }) });
    dynamo.on(UpdateCommand).rejectsOnce(conditionFailed()).resolves({});

    await admin().revokeRole('alice', GENERATOR_ADMIN_ROLE);

    expect(updates().map((u) => [u.UpdateExpression, u.ConditionExpression])).toEqual([
      ['REMOVE #roles[1]', '#roles[1] = :role'],
      ['REMOVE #roles[0]', '#roles[0] = :role'],
    ]);
  });

  it('revoke of a role not held is an error, so a typo is never taken for a revocation', async () => {
    dynamo.on(GetCommand).resolves({ Item: user() });
    await expect(admin().revokeRole('alice', 'Password Generator Policy Security Admin')).rejects.toThrow(
      'User "alice" does not hold the role "Password Generator Policy Security Admin".',
    );
    expect(updates()).toHaveLength(0);
  });

  it('gives up with a clear error when the item keeps changing', async () => {
    dynamo.on(GetCommand).resolves({ Item: user() });
    dynamo.on(UpdateCommand).rejects(conditionFailed());
    await expect(admin().revokeRole('alice', GENERATOR_ADMIN_ROLE)).rejects.toThrow(
      'kept changing while this command ran; run it again.',
    );
  });
});

describe('list', () => {
  it('lists ids, roles, flags, dates and usage plans from every page, and never a digest', async () => {
    const digest = 'a'.repeat(64);
    dynamo
      .on(ScanCommand)
      .resolvesOnce({
        Items: [
          user({
            UserID: 'zed',
            CredentialID: 'USER#zed',
            Keys: { bbbbbbbbbbbb: { Digest: digest, CreatedAt: '2026-02-01T00:00:00.000Z' } },
            LastUsed: { bbbbbbbbbbbb: '2026-03-01T00:00:00.000Z' },
          }),
        ],
        LastEvaluatedKey: { CredentialID: 'USER#zed' },
      })
      .resolvesOnce({
        Items: [
          // A plan the authorizer does not know meters the key on the default plan, and is listed so.
          {
            CredentialID: 'STRENGTH_KEYS',
            Keys: { cccccccccccc: { Digest: digest, CreatedAt: '2026-01-01T00:00:00.000Z', UsagePlan: 'gold' } },
          },
          {
            CredentialID: 'GENERATOR_KEYS',
            Keys: { eeeeeeeeeeee: { Digest: digest, CreatedAt: '2026-01-02T00:00:00.000Z' } },
            LastUsed: { eeeeeeeeeeee: '2026-01-03T00:00:00.000Z' },
          },
          // Written by hand: roles as a string set, no Disabled, no dates.
          {
            CredentialID: 'USER#amy',
            UserID: 'amy',
            Roles: new Set(['r']),
            Keys: { dddddddddddd: { Digest: digest, UsagePlan: 'high' } },
          },
        ],
      });

    const listing = await admin().list();

    expect(listing).toEqual({
      users: [
        { userId: 'amy', roles: ['r'], disabled: false, keys: [{ keyId: 'dddddddddddd', usagePlan: 'high' }] },
        {
          userId: 'zed',
          roles: [GENERATOR_ADMIN_ROLE],
          disabled: false,
          createdAt: NOW.toISOString(),
          keys: [
            {
              keyId: 'bbbbbbbbbbbb',
              createdAt: '2026-02-01T00:00:00.000Z',
              lastUsedAt: '2026-03-01T00:00:00.000Z',
              usagePlan: 'standard',
            },
          ],
        },
      ],
      generatorKeys: [
        {
          keyId: 'eeeeeeeeeeee',
          createdAt: '2026-01-02T00:00:00.000Z',
          lastUsedAt: '2026-01-03T00:00:00.000Z',
          usagePlan: 'standard',
        },
      ],
      strengthKeys: [{ keyId: 'cccccccccccc', createdAt: '2026-01-01T00:00:00.000Z', usagePlan: 'standard' }],
    });
    expect(JSON.stringify(listing)).not.toContain(digest);
    expect(dynamo.commandCalls(ScanCommand)[0]!.args[0].input).toMatchObject({
      TableName: 'CredTable',
      ConsistentRead: true,
    });
  });
});
