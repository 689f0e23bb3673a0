import { mkdtemp, rm } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { startEmbeddedStore } from '../../embedded-store/embedded-store';
import { localDynamoDbClientConfig } from '../../functions/runtime';
import { TABLE_NAMES } from '../../local/start';
import { loadSeed } from '../../seed/seed-data';
import { createTables } from '../../store/create-tables';

/** The local store as `npm start` seeds it, for the tests of the policy CLI that works on it. */
export interface SeededStore {
  readonly endpoint: string;
  /** A document client on the store, for what a test reads or writes behind the CLI's back. */
  readonly documents: DynamoDBDocumentClient;
  /** A temporary folder of the test's own, for the files the CLI exports and reads. */
  readonly dir: string;
  /** Stops the store and removes the folder. */
  close(): Promise<void>;
}

/**
 * The embedded store (dynalite with the local store's TransactWriteItems, embedded-store/transactions.ts) on a
 * free loopback port, with the local tables (local/start.ts's names) and the seed loaded into them, each
 * policy's creation recorded in the history as made by "seed"; and a temporary folder named from `prefix`.
 */
export async function startSeededStore(prefix: string): Promise<SeededStore> {
  const store = await startEmbeddedStore();
  const client = new DynamoDBClient(localDynamoDbClientConfig(store.endpoint));
  const documents = DynamoDBDocumentClient.from(client);
  await createTables(client, TABLE_NAMES);
  await loadSeed({
    client: documents,
    generatorTable: TABLE_NAMES.generator,
    strengthTable: TABLE_NAMES.strength,
    historyTable: TABLE_NAMES.history,
    actor: 'seed',
  });
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  return {
    endpoint: store.endpoint,
    documents,
    dir,
    async close() {
      client.destroy();
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
