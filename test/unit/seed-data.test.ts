import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
// Type declarations of the matchers that jest.config.js installs (toHaveReceivedCommandTimes).
import 'aws-sdk-client-mock-jest';
import { writePolicies } from '../../seed/seed-data';

const TABLE = 'GeneratorPolicies';
const documentClient = DynamoDBDocumentClient.from(
  new DynamoDBClient({ region: 'local', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } }),
);
const ddb = mockClient(documentClient);

/** Records only need an ID here: writePolicies does not validate, loadSeed does that before. */
const policies = (n: number) => Array.from({ length: n }, (_, i) => ({ PasswordGeneratorID: i + 1 }));
const put = (id: number) => ({ PutRequest: { Item: { PasswordGeneratorID: id } } });
const sentItems = (call: number) => ddb.commandCalls(BatchWriteCommand)[call]!.args[0].input.RequestItems![TABLE]!;

describe('writePolicies', () => {
  let delays: number[];
  const sleep = async (ms: number) => {
    delays.push(ms);
  };

  beforeEach(() => {
    ddb.reset();
    delays = [];
  });

  it('resends UnprocessedItems with exponential backoff and counts every record once', async () => {
    ddb
      .on(BatchWriteCommand)
      .resolvesOnce({ UnprocessedItems: { [TABLE]: [put(2), put(3)] } })
      .resolvesOnce({ UnprocessedItems: { [TABLE]: [put(3)] } })
      .resolves({ UnprocessedItems: {} });

    const written = await writePolicies(documentClient, TABLE, policies(5), { baseDelayMs: 10, sleep });

    expect(written).toBe(5);
    expect(ddb).toHaveReceivedCommandTimes(BatchWriteCommand, 3);
    expect(sentItems(0)).toHaveLength(5);
    expect(sentItems(1)).toEqual([put(2), put(3)]);
    expect(sentItems(2)).toEqual([put(3)]);
    expect(delays).toEqual([10, 20]);
  });

  it('splits the records into batches of at most 25', async () => {
    ddb.on(BatchWriteCommand).resolves({});

    expect(await writePolicies(documentClient, TABLE, policies(60), { sleep })).toBe(60);
    expect(ddb.commandCalls(BatchWriteCommand).map((_, i) => sentItems(i).length)).toEqual([25, 25, 10]);
    expect(delays).toEqual([]);
  });

  it('gives up with a clear error when items stay unprocessed', async () => {
    ddb.on(BatchWriteCommand).resolves({ UnprocessedItems: { [TABLE]: [put(1)] } });

    await expect(
      writePolicies(documentClient, TABLE, policies(3), { maxAttempts: 4, baseDelayMs: 1, sleep }),
    ).rejects.toThrow(`1 item(s) for table ${TABLE} were still unprocessed after 4 BatchWriteItem attempts`);
    expect(ddb).toHaveReceivedCommandTimes(BatchWriteCommand, 4);
    expect(delays).toEqual([1, 2, 4]);
  });

  it('writes nothing and makes no call for an empty list', async () => {
    expect(await writePolicies(documentClient, TABLE, [], { sleep })).toBe(0);
    expect(ddb).toHaveReceivedCommandTimes(BatchWriteCommand, 0);
  });
});
