/**
 * The environment of the two minimal functions (minimal-scan.ts, minimal-get-item.ts): the bench sets it.
 * A file of its own, without imports, so the minimal bundles carry nothing of the service (functions/runtime.ts
 * would bring Powertools with it).
 */
export const MINIMAL_ENV = {
  table: 'MINIMAL_TABLE_NAME',
  endpoint: 'MINIMAL_DYNAMODB_ENDPOINT',
  /** The minimal GetItem function's key: the CredentialID the authorizer reads for the same request. */
  credentialId: 'MINIMAL_CREDENTIAL_ID',
} as const;

/**
 * The client both minimal functions use: the SDK's defaults, pointed at the bench's DynamoDB, with the region
 * and the credentials the bench gives them in the environment, as Lambda does (functions/runtime.ts's
 * localDynamoDbClientConfig: the cold-start bench sets them from it).
 */
export function minimalClientConfig(env: NodeJS.ProcessEnv = process.env) {
  const endpoint = env[MINIMAL_ENV.endpoint];
  return endpoint
    ? {
        endpoint,
        region: env.AWS_REGION,
        credentials: { accessKeyId: env.AWS_ACCESS_KEY_ID ?? '', secretAccessKey: env.AWS_SECRET_ACCESS_KEY ?? '' },
      }
    : {};
}
