import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { formatFinding } from '../../admin/policy-lint';
import { formatPlan, makePlan } from '../../admin/policy-plan';
import {
  checkPolicy,
  fieldDiff,
  PolicyAdminError,
  PolicyStore,
  type Policy,
  type StoredPolicy,
} from '../../store/policy-store';
import { generatorPolicy, strengthPolicy } from '../../testkit/policy-fixtures';

const p = (id: number, overrides: Partial<ReturnType<typeof generatorPolicy>> = {}): Policy =>
  generatorPolicy({ PasswordGeneratorID: id, GeneratorName: `Policy ${id}`, ...overrides });
/** The policies of a directory, by their id. */
const directory = (...policies: Policy[]) =>
  new Map(policies.map((policy) => [policy.PasswordGeneratorID as number, policy]));
/** Versions by policy id: the ones the directory's export rests on. */
const versions = (byId: Record<number, number>) => new Map(Object.entries(byId).map(([id, v]) => [Number(id), v]));
/** The store, holding p(id) at the version given for each id. */
const storeOf = (byId: Record<number, number>): Map<number, StoredPolicy> =>
  new Map(Object.entries(byId).map(([id, version]) => [Number(id), { policy: p(Number(id)), version }]));

describe('makePlan: the diff apply would write', () => {
  it('creates, changes and deletes field by field, and counts the unchanged', () => {
    // The store is as exported; the directory keeps 1, changes 2, deletes 3 and creates 4.
    const desired = directory(p(1), p(2, { MinLength: 14, GeneratorDescription: 'Longer now.' }), p(4));
    const plan = makePlan('generator', desired, versions({ 1: 1, 2: 3, 3: 1 }), storeOf({ 1: 1, 2: 3, 3: 1 }));

    expect(plan.refusals).toEqual([]);
    expect(plan.unchanged).toBe(1);
    expect(plan.changes.map((c) => [c.id, c.before?.version, c.after === undefined])).toEqual([
      [2, 3, false],
      [3, 1, true],
      [4, undefined, false],
    ]);
    const text = formatPlan(plan, 'GeneratorName');
    expect(text).toBe(
      [
        '~ change generator policy 2 "Policy 2" (version 3 → 4)',
        `    GeneratorDescription: ${JSON.stringify(p(2).GeneratorDescription)} → "Longer now."`,
        '    MinLength: 12 → 14',
        '- delete generator policy 3 "Policy 3" (version 1)',
        '+ create generator policy 4 "Policy 4"',
        ...Object.entries(p(4)).map(([field, value]) => `    ${field}: ${JSON.stringify(value)}`),
        'Plan: 1 to create, 1 to change, 1 to delete, 1 unchanged.',
        '',
      ].join('\n'),
    );
  });

  it('fieldDiff lists only the fields that differ, old → new', () => {
    expect(fieldDiff(strengthPolicy(), strengthPolicy({ PolicyName: 'B', ComplianceMandatory: true }))).toEqual([
      'PolicyName: "Default Password Strength Policy" → "B"',
      'ComplianceMandatory: false → true',
    ]);
    expect(fieldDiff(strengthPolicy(), strengthPolicy())).toEqual([]);
  });
});

describe('makePlan: conflict detection against the export the directory rests on', () => {
  it('refuses, naming each policy, what the store changed, created or deleted after the export', () => {
    // After the export, the store changed 2 (version 1 to 2), deleted 3 and created 4.
    const desired = directory(p(1), p(2, { MinLength: 13 }), p(3), p(5));
    const plan = makePlan('generator', desired, versions({ 1: 1, 2: 1, 3: 2 }), storeOf({ 1: 1, 2: 2, 4: 1 }));

    expect(plan.refusals).toEqual([
      'generator policy 2: changed in the store after the export (version 1 then, 2 now); export again.',
      'generator policy 3: deleted from the store after the export (version 2 then); export again.',
      'generator policy 4: created in the store after the export (version 1); export again.',
    ]);
    expect(plan.changes.map((c) => c.id)).toEqual([5]);
    expect(formatPlan(plan, 'GeneratorName').trimEnd().split('\n').at(-1)).toBe(
      'Plan: 1 to create, 0 to change, 0 to delete, 1 unchanged. Apply would refuse: 3 problem(s) above.',
    );
  });

  it('refuses to delete policy 1 of either collection', () => {
    for (const collection of ['generator', 'strength'] as const) {
      const plan = makePlan(collection, new Map(), versions({ 1: 1 }), storeOf({ 1: 1 }));
      expect(plan.changes).toEqual([]);
      expect(plan.refusals).toEqual([
        `${collection} policy 1 is the default for password lists without a specific policy: it can be changed but never deleted.`,
      ]);
    }
  });
});

describe('the plan prints every text with the characters a terminal must not be handed raw escaped', () => {
  // A word and a name stored before BannedWords refused these (docs/administration.md#bannedwords), or a
  // description, which may hold any character: U+202E would show the rest of its line reversed.
  const before = strengthPolicy({
    PasswordStrengthPolicyID: 2,
    PolicyName: 'Domain\u202eUsers',
    PolicyDescription: 'Old',
    BannedWords: ['Con\u200btoso', 'Acme'],
  } as never);
  const after = {
    ...before,
    PolicyDescription:
      'Line\u2028two\u0085, \u2066isolated\u2069, noncharacter \ufdd0, BOM \ufeff, tab\t, quote " and \\u{202E}',
    BannedWords: ['Acme', '\u202eEmca', 'ab\u0000c', '\ud800abc'],
  };

  it('a change: the name in its heading, each value of its diff, each word added and removed', () => {
    const plan = makePlan(
      'strength',
      new Map([[2, after]]),
      new Map([[2, 4]]),
      new Map([[2, { policy: before, version: 4 }]]),
    );
    const text = formatPlan(plan, 'PolicyName');
    expect(text).toBe(
      [
        '~ change strength policy 2 "Domain\\u{202E}Users" (version 4 → 5)',
        '    PolicyDescription: "Old" → "Line\\u{2028}two\\u{0085}, \\u{2066}isolated\\u{2069}, noncharacter \\u{FDD0}, BOM \\u{FEFF}, tab\\u{0009}, quote \\" and \\\\u{202E}"',
        '    BannedWords: + "\\u{202E}Emca", + "ab\\u{0000}c", + "\\u{D800}abc", - "Con\\u{200B}toso"',
        'Plan: 0 to create, 1 to change, 0 to delete, 0 unchanged.',
        '',
      ].join('\n'),
    );
    // Nothing but the line feeds between lines is a control, format or separator character, or a lone surrogate.
    expect(text.replace(/\n/g, '')).not.toMatch(/[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/u);
  });

  it('a creation and a deletion: every field of the policy', () => {
    const created = formatPlan(
      makePlan('strength', new Map([[3, { ...after, PasswordStrengthPolicyID: 3 }]]), new Map(), new Map()),
      'PolicyName',
    );
    expect(created.split('\n')[0]).toBe('+ create strength policy 3 "Domain\\u{202E}Users"');
    expect(created).toContain('\n    BannedWords: ["Acme","\\u{202E}Emca","ab\\u{0000}c","\\u{D800}abc"]\n');
    const deleted = formatPlan(
      makePlan('strength', new Map(), new Map([[2, 4]]), new Map([[2, { policy: before, version: 4 }]])),
      'PolicyName',
    );
    expect(deleted.split('\n')[0]).toBe('- delete strength policy 2 "Domain\\u{202E}Users" (version 4)');
  });

  it('a lint finding the plan lists after it: its value escaped the same way', () => {
    const finding = {
      field: 'ExcludeChars',
      value: 'O0\u202e',
      severity: 'should' as const,
      message: 'Message.',
      clauses: [],
      fix: 'Fix it.',
    };
    expect(formatFinding(finding)).toBe(
      '  [departs from a SHOULD] ExcludeChars: "O0\\u{202E}". Message.\n      Fix: Fix it.',
    );
  });

  it('fieldDiff, which history prints too: the same escapes; text without such characters as JSON writes it', () => {
    expect(fieldDiff({ ...before, PolicyName: 'A "quoted" \\ name' }, { ...before, PolicyName: 'Na\u200bme' })).toEqual(
      ['PolicyName: "A \\"quoted\\" \\\\ name" → "Na\\u{200B}me"'],
    );
    expect(fieldDiff(strengthPolicy(), strengthPolicy({ PolicyName: 'Zürich 東京 🔑' }))).toEqual([
      `PolicyName: ${JSON.stringify(strengthPolicy().PolicyName)} → ${JSON.stringify('Zürich 東京 🔑')}`,
    ]);
  });
});

describe('checkPolicy: what every write checks', () => {
  it('value domains, feasibility and the default policy’s description, each naming the field', () => {
    expect(checkPolicy('generator', p(3))).toEqual({ ok: true, policy: p(3) });
    expect(checkPolicy('generator', { ...p(3), MaxLength: 999 })).toEqual({
      ok: false,
      problems: ['MaxLength: must be at most 256'],
    });
    expect(
      checkPolicy('generator', p(3, { MinLength: 4, MaxLength: 4, BracketChars: true, HigherAlphaRatio: false })),
    ).toEqual({
      ok: false,
      problems: ['infeasible: 5 character classes must each appear once, but MinLength is 4.'],
    });
    expect(checkPolicy('strength', strengthPolicy({ PolicyDescription: 'For everything.' }))).toEqual({
      ok: false,
      problems: [
        'PolicyDescription: must say that strength policy 1 is the default (for password lists without a specific policy)',
      ],
    });
  });
});

describe('PolicyStore.commit', () => {
  const dynamo = mockClient(DynamoDBDocumentClient);
  const store = () =>
    new PolicyStore(
      DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'local' })),
      { generator: 'Gen', strength: 'Str', history: 'Hist' },
      () => new Date('2025-01-02T03:04:05Z'),
    );
  beforeEach(() => dynamo.reset());

  it('writes the policy conditional on the version read and its history record, in one transaction', async () => {
    dynamo.on(TransactWriteCommand).resolves({});
    const after = p(2, { MinLength: 14 });

    expect(
      await store().commit(
        [{ collection: 'generator', id: 2, before: { policy: p(2), version: 3 }, after }],
        'arn:aws:iam::123456789012:user/alice',
      ),
    ).toEqual([4]);

    expect(dynamo).toHaveReceivedCommandTimes(TransactWriteCommand, 1);
    expect(dynamo.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems).toEqual([
      {
        Put: {
          TableName: 'Gen',
          Item: { ...after, Version: 4 },
          ConditionExpression: '#version = :read',
          ExpressionAttributeNames: { '#version': 'Version' },
          ExpressionAttributeValues: { ':read': 3 },
        },
      },
      {
        Put: {
          TableName: 'Hist',
          Item: {
            PolicyKey: 'generator#2',
            Version: 4,
            Change: 'update',
            ChangedAt: '2025-01-02T03:04:05.000Z',
            ChangedBy: 'arn:aws:iam::123456789012:user/alice',
            Before: p(2),
            After: after,
          },
          ConditionExpression: 'attribute_not_exists(#key)',
          ExpressionAttributeNames: { '#key': 'PolicyKey' },
        },
      },
    ]);
  });

  it('a cancelled transaction (someone changed the policy) is refused naming the policy', async () => {
    dynamo.on(QueryCommand).resolves({ Items: [] });
    dynamo.on(TransactWriteCommand).rejects(
      Object.assign(new Error('Transaction cancelled'), {
        name: 'TransactionCanceledException',
        CancellationReasons: [{ Code: 'None' }, { Code: 'None' }, { Code: 'ConditionalCheckFailed' }, { Code: 'None' }],
      }),
    );
    const changes = [
      { collection: 'generator' as const, id: 2, before: { policy: p(2), version: 1 }, after: p(2, { MinLength: 13 }) },
      { collection: 'generator' as const, id: 7, before: undefined, after: p(7) },
    ];

    const error = await store()
      .commit(changes, 'alice')
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(PolicyAdminError);
    expect((error as PolicyAdminError).problems).toEqual([
      'generator policy 7: someone else created it since it was read; nothing was written. Export (or read) it again.',
    ]);
  });

  it('refuses to delete policy 1 without calling DynamoDB', async () => {
    await expect(
      store().commit(
        [{ collection: 'strength', id: 1, before: { policy: strengthPolicy(), version: 2 }, after: undefined }],
        'alice',
      ),
    ).rejects.toThrow(
      'strength policy 1 is the default for password lists without a specific policy: it can be changed but never deleted.',
    );
    expect(dynamo.calls()).toHaveLength(0);
  });
});
