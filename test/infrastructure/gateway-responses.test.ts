import { Match } from 'aws-cdk-lib/assertions';
import { ResponseType } from 'aws-cdk-lib/aws-apigateway';
import { errorEnvelope, PHRASES, REASON_PHRASES, type ErrorStatus } from '../../functions/http';
import { ROUTE_PHRASES } from '../../functions/routes';
import { TABLES } from '../../functions/repositories/tables';
import { GATEWAY_PHRASES } from '../../lib/gateway-contract';
import { assertPlainTemplate } from '../../lib/gateway-responses';
import { resourcesOfType, synth } from './synth';

/** The status and phrase each response type must answer with (the map). */
const EXPECTED: Record<string, { status: ErrorStatus; phrase?: string }> = {
  UNAUTHORIZED: { status: 401, phrase: ROUTE_PHRASES.unauthorized },
  ACCESS_DENIED: { status: 403, phrase: '$context.authorizer.reason' },
  MISSING_AUTHENTICATION_TOKEN: { status: 404, phrase: ROUTE_PHRASES.notFound },
  RESOURCE_NOT_FOUND: { status: 404, phrase: ROUTE_PHRASES.notFound },
  THROTTLED: { status: 429, phrase: PHRASES.throttled },
  QUOTA_EXCEEDED: { status: 429, phrase: PHRASES.throttled },
  BAD_REQUEST_PARAMETERS: { status: 400 },
  BAD_REQUEST_BODY: { status: 400 },
  REQUEST_TOO_LARGE: { status: 413, phrase: GATEWAY_PHRASES.tooLarge },
  UNSUPPORTED_MEDIA_TYPE: { status: 415 },
  INVALID_API_KEY: { status: 403 },
  INVALID_SIGNATURE: { status: 403 },
  EXPIRED_TOKEN: { status: 403 },
  WAF_FILTERED: { status: 403 },
  AUTHORIZER_FAILURE: { status: 503, phrase: PHRASES.credentialsUnavailable },
  AUTHORIZER_CONFIGURATION_ERROR: { status: 503, phrase: PHRASES.credentialsUnavailable },
  API_CONFIGURATION_ERROR: { status: 500, phrase: PHRASES.internal },
  INTEGRATION_FAILURE: { status: 503, phrase: PHRASES.unavailable },
  INTEGRATION_TIMEOUT: { status: 503, phrase: PHRASES.unavailable },
  DEFAULT_4XX: { status: 400 },
  DEFAULT_5XX: { status: 500, phrase: PHRASES.internal },
};

/** Every response type the CDK knows, so a type added to API Gateway (and the CDK) fails this test. */
const ALL_TYPES = Object.values(ResponseType)
  .filter((v): v is ResponseType => v instanceof ResponseType)
  .map((t) => t.responseType);

describe('gateway responses', () => {
  const { stack, template, logicalId } = synth();
  const byType = new Map(
    Object.values(resourcesOfType(template, 'AWS::ApiGateway::GatewayResponse')).map((r) => [
      r.Properties.ResponseType as string,
      r.Properties,
    ]),
  );

  it('covers every API Gateway response type, each once', () => {
    expect(ALL_TYPES.length).toBeGreaterThanOrEqual(21);
    expect(new Set(byType.keys())).toEqual(new Set(ALL_TYPES));
    template.resourceCountIs('AWS::ApiGateway::GatewayResponse', ALL_TYPES.length);
    expect(new Set(Object.keys(EXPECTED))).toEqual(new Set(ALL_TYPES));
  });

  it.each(Object.entries(EXPECTED).map(([type, e]) => [type, e.status, e.phrase] as const))(
    '%s: status %p, JSON content type, the error envelope',
    (type, status, phrase) => {
      const response = byType.get(type)!;
      expect(response.StatusCode).toBe(String(status));
      expect(response.ResponseParameters).toEqual({
        'gatewayresponse.header.Content-Type': "'application/json; charset=utf-8'",
      });
      const body = response.ResponseTemplates['application/json'] as string;
      expect(Object.keys(response.ResponseTemplates)).toEqual(['application/json']);
      const parsed = JSON.parse(body);
      expect(parsed).toEqual([{ errors: [{ message: REASON_PHRASES[status] }, { phrase: expect.any(String) }] }]);
      if (phrase !== undefined) expect(body).toBe(errorEnvelope(status, phrase));
    },
  );

  it('answers the documented bodies, character for character', () => {
    template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
      ResponseType: 'ACCESS_DENIED',
      StatusCode: '403',
      ResponseTemplates: {
        'application/json': '[{"errors":[{"message":"Forbidden"},{"phrase":"$context.authorizer.reason"}]}]',
      },
    });
    template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
      ResponseType: 'UNAUTHORIZED',
      StatusCode: '401',
      ResponseTemplates: {
        'application/json': `[{"errors":[{"message":"Unauthorized"},{"phrase":${JSON.stringify(ROUTE_PHRASES.unauthorized)}}]}]`,
      },
    });
    template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
      ResponseType: 'MISSING_AUTHENTICATION_TOKEN',
      StatusCode: '404',
      ResponseTemplates: {
        'application/json': Match.stringLikeRegexp('^\\[\\{"errors":\\[\\{"message":"Not Found"\\},\\{"phrase":'),
      },
    });
  });

  it('never puts a table name, an ARN or a template directive in a phrase', () => {
    // Physical table names are <stack name>-<table logical id>-<suffix>.
    const tableIds = (Object.keys(TABLES) as (keyof typeof TABLES)[]).map((kind) => logicalId(stack.tables[kind]));
    const forbidden = [/arn:/i, /dynamodb/i, /#/, new RegExp(stack.stackName), ...tableIds.map((id) => new RegExp(id))];
    for (const [type, response] of byType) {
      const [{ errors }] = JSON.parse(response.ResponseTemplates['application/json']);
      const phrase = errors[1].phrase as string;
      expect(phrase.length).toBeGreaterThan(0);
      for (const pattern of forbidden)
        expect({ type, matches: pattern.test(phrase) }).toEqual({ type, matches: false });
      if (type !== 'ACCESS_DENIED') expect(phrase).not.toContain('$');
    }
    expect(GATEWAY_PHRASES.accessDenied).toBe('$context.authorizer.reason');
  });

  it('refuses a template that would be read as more than a $context reference', () => {
    expect(() => assertPlainTemplate('{"phrase":"costs $5"}')).toThrow(/must not hold/);
    expect(() => assertPlainTemplate('#set($x = 1)')).toThrow(/must not hold/);
    expect(assertPlainTemplate('"$context.authorizer.reason"')).toBe('"$context.authorizer.reason"');
  });
});
