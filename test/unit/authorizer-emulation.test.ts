import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { CREDENTIAL_SCHEMES } from '../../functions/routes';
import { AuthorizerEmulation } from '../../local/authorizer-emulation';

const ARN = 'arn:aws:execute-api:local:000000000000:local/local/GET/api/passwordstrength';
const withStatement = (
  effect: 'Allow' | 'Deny',
  resource: string,
  context: Record<string, string>,
): APIGatewayAuthorizerResult => ({
  principalId: 'strength-key:1',
  policyDocument: {
    Version: '2012-10-17',
    Statement: [{ Action: 'execute-api:Invoke', Effect: effect, Resource: resource }],
  },
  context,
});
const allow: APIGatewayAuthorizerResult = {
  principalId: 'strength-key:1',
  policyDocument: {
    Version: '2012-10-17',
    Statement: [
      {
        Action: 'execute-api:Invoke',
        Effect: 'Allow',
        Resource: 'arn:aws:execute-api:local:000000000000:local/local/*/api/*',
      },
    ],
  },
  context: { keyId: '1' },
};
/** What the gateway hands the emulation: the request's headers and method ARN, and the event to build on a call. */
const asRequest = (headers: Record<string, string[]>) =>
  [{ multiValueHeaders: headers, methodArn: ARN }, () => event(headers)] as const;
const event = (headers: Record<string, string[]>) =>
  ({
    methodArn: ARN,
    headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v[v.length - 1]])),
    multiValueHeaders: headers,
  }) as unknown as APIGatewayRequestAuthorizerEvent;

describe('local emulation of API Gateway authorizer semantics', () => {
  it('answers UNAUTHORIZED without calling the function when an identity source is missing or empty', async () => {
    const handler = jest.fn(async () => allow);
    const emulation = new AuthorizerEmulation(handler, 300);
    expect(await emulation.authorize(CREDENTIAL_SCHEMES.strengthKey, ...asRequest({}))).toEqual({
      refusal: 'UNAUTHORIZED',
    });
    expect(await emulation.authorize(CREDENTIAL_SCHEMES.strengthKey, ...asRequest({ APIKey: [''] }))).toEqual({
      refusal: 'UNAUTHORIZED',
    });
    expect(await emulation.authorize(CREDENTIAL_SCHEMES.generatorUser, ...asRequest({ APIKey: ['k'] }))).toEqual({
      refusal: 'UNAUTHORIZED',
    });
    expect(handler).not.toHaveBeenCalled();
  });

  it('caches a result per identity-source values for the TTL', async () => {
    const handler = jest.fn(async () => allow);
    const emulation = new AuthorizerEmulation(handler, 300);
    const first = await emulation.authorize(CREDENTIAL_SCHEMES.strengthKey, ...asRequest({ APIKey: ['k'] }));
    const second = await emulation.authorize(CREDENTIAL_SCHEMES.strengthKey, ...asRequest({ apikey: ['k'] }));
    expect(first).toEqual({ context: { keyId: '1', principalId: 'strength-key:1' } });
    expect(second).toEqual(first);
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it('never answers a repeated header from the cached result of a single one', async () => {
    const handler = jest.fn(async (e: APIGatewayRequestAuthorizerEvent) => {
      if ((e.multiValueHeaders?.APIKey ?? []).length > 1) throw new Error('Unauthorized');
      return allow;
    });
    const emulation = new AuthorizerEmulation(handler, 300);
    await emulation.authorize(CREDENTIAL_SCHEMES.strengthKey, ...asRequest({ APIKey: ['k'] }));
    expect(
      await emulation.authorize(CREDENTIAL_SCHEMES.strengthKey, ...asRequest({ APIKey: ['garbage', 'k'] })),
    ).toEqual({ refusal: 'UNAUTHORIZED' });
  });

  it('maps a thrown "Unauthorized" to UNAUTHORIZED, another failure to AUTHORIZER_CONFIGURATION_ERROR, and a Deny to ACCESS_DENIED with its context (the reason)', async () => {
    const ttl = 0;
    expect(
      await new AuthorizerEmulation(async () => Promise.reject(new Error('Unauthorized')), ttl).authorize(
        CREDENTIAL_SCHEMES.strengthKey,
        ...asRequest({ APIKey: ['k'] }),
      ),
    ).toEqual({ refusal: 'UNAUTHORIZED' });
    expect(
      await new AuthorizerEmulation(async () => Promise.reject(new Error('boom')), ttl).authorize(
        CREDENTIAL_SCHEMES.strengthKey,
        ...asRequest({ APIKey: ['k'] }),
      ),
    ).toEqual({ refusal: 'AUTHORIZER_CONFIGURATION_ERROR' });
    const deny = withStatement('Deny', 'arn:aws:execute-api:local:000000000000:local/local/*/api/*', {
      reason: 'No role.',
    });
    expect(
      await new AuthorizerEmulation(async () => deny, ttl).authorize(
        CREDENTIAL_SCHEMES.strengthKey,
        ...asRequest({ APIKey: ['k'] }),
      ),
    ).toEqual({ refusal: 'ACCESS_DENIED', context: { reason: 'No role.' } });
  });

  it('answers ACCESS_DENIED when the Allow does not cover the requested method ARN', async () => {
    const narrow = withStatement('Allow', 'arn:aws:execute-api:local:000000000000:local/local/*/userapi/*', {
      keyId: '1',
    });
    expect(
      await new AuthorizerEmulation(async () => narrow, 0).authorize(
        CREDENTIAL_SCHEMES.strengthKey,
        ...asRequest({ APIKey: ['k'] }),
      ),
    ).toEqual({ refusal: 'ACCESS_DENIED', context: { keyId: '1' } });
  });
});
