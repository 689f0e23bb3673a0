import { fromEnv } from '@aws-sdk/credential-provider-env';

/**
 * Stands in for @aws-sdk/credential-provider-node (the AWS SDK's credential chain, nothing to do with the
 * service's API keys) inside the Lambda bundles only (see bundling.ts). Lambda always hands a function its
 * role's credentials as environment variables, so the rest of the default chain (SSO, shared INI files, web identity, ECS, IMDS) can never apply there, yet it is about a
 * quarter of a bundle. Tests and operator tools still resolve the real package and its full chain.
 */
export const defaultProvider = (init?: Parameters<typeof fromEnv>[0]) => fromEnv(init);

/** The same two helpers the real package exports, with its semantics (refresh 5 minutes before expiry). */
export const credentialsWillNeedRefresh = (credentials?: { expiration?: Date }): boolean =>
  credentials?.expiration !== undefined;
export const credentialsTreatedAsExpired = (credentials?: { expiration?: Date }): boolean =>
  credentials?.expiration !== undefined && credentials.expiration.getTime() - Date.now() < 300_000;
