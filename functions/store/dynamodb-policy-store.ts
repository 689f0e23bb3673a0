import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, paginateScan } from '@aws-sdk/lib-dynamodb';
import { validatePolicy, type PolicyResource } from '../domain/policy-resource';
import { SERVICE_METRICS } from '../metrics';
import { countMetric, logger } from '../observability';
import type { PolicyStore } from './policy-store';

/**
 * Reads one policy table completely: a Scan followed through every LastEvaluatedKey (DynamoDB pages at
 * 1 MB). Each record is validated on the way in; an invalid one is left out, logged with its identifier at
 * ERROR and counted in the InvalidPolicyRecords metric, so one bad record never breaks the collection.
 */
export class DynamoDbPolicyStore<T extends object> implements PolicyStore<T> {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly resource: PolicyResource<T>,
  ) {}

  async loadAll(): Promise<readonly T[]> {
    const policies: T[] = [];
    let invalid = 0;
    for await (const page of paginateScan({ client: this.client }, { TableName: this.tableName, ConsistentRead: true })) {
      for (const record of page.Items ?? []) {
        const result = validatePolicy(this.resource, record);
        if (result.ok) {
          policies.push(result.policy);
        } else {
          invalid += 1;
          logger.error(`Invalid ${this.resource.title} record left out`, { policyId: record[this.resource.idField], problems: result.problems });
        }
      }
    }
    if (invalid > 0) countMetric(SERVICE_METRICS.names.invalidPolicyRecords, invalid);
    const id = this.resource.idField;
    return policies.sort((a, b) => (a[id] as number) - (b[id] as number));
  }
}

/**
 * The document client every function shares, built once per process. Retries and timeouts are explicit so
 * a DynamoDB outage costs a bounded time: DYNAMODB_MAX_ATTEMPTS attempts (default 3), each bounded by
 * DYNAMODB_REQUEST_TIMEOUT_MS (default 2000). DYNAMODB_ENDPOINT points the local run at dynalite.
 */
export function createDocumentClient(env: NodeJS.ProcessEnv = process.env): DynamoDBDocumentClient {
  const endpoint = env.DYNAMODB_ENDPOINT || undefined;
  const client = new DynamoDBClient({
    ...(endpoint ? { endpoint, region: env.AWS_REGION ?? 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
    maxAttempts: positiveInt(env.DYNAMODB_MAX_ATTEMPTS, 3),
    // Without throwOnRequestTimeout the SDK only logs a warning at requestTimeout and keeps waiting.
    requestHandler: { connectionTimeout: 1000, requestTimeout: positiveInt(env.DYNAMODB_REQUEST_TIMEOUT_MS, 2000), throwOnRequestTimeout: true },
  });
  return DynamoDBDocumentClient.from(client, { unmarshallOptions: { wrapNumbers: safeNumber } });
}

/**
 * Every number of both resources is an integer. One the SDK cannot convert (beyond JavaScript's safe
 * integers) would make it throw for the whole Scan; kept as a string, it fails validation ("must be an
 * integer") and only its record is left out. Other non-integers go the same way.
 */
function safeNumber(value: string): number | string {
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : value;
}

export function positiveInt(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return value !== undefined && value !== '' && Number.isInteger(n) && n >= 0 ? n : fallback;
}
