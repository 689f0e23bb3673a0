import { Match, type Template } from 'aws-cdk-lib/assertions';
import { errorEnvelope, PHRASES } from '../../functions/http/errors';
import { CREDENTIAL_SCHEMES, ROUTES } from '../../functions/routes';
import { referencedIds, resourcesOfType, synth } from './synth';

/** Every resource path of the template, rebuilt from the PathPart/ParentId chain. */
function resourcePathsById(template: Template): Map<string, string> {
  const resources = resourcesOfType(template, 'AWS::ApiGateway::Resource');
  const pathOf = (id: string): string => {
    const { ParentId, PathPart } = resources[id]!.Properties;
    const parent = ParentId.Ref as string | undefined;
    return `${parent ? pathOf(parent) : ''}/${PathPart}`;
  };
  return new Map(Object.keys(resources).map((id) => [id, pathOf(id)]));
}

/** Each method as "<HTTP method> <path>", with its properties. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function methodsByRoute(template: Template): Map<string, Record<string, any>> {
  const paths = resourcePathsById(template);
  return new Map(
    Object.values(resourcesOfType(template, 'AWS::ApiGateway::Method')).map((m) => [`${m.Properties.HttpMethod} ${paths.get(m.Properties.ResourceId.Ref) ?? '/'}`, m.Properties]),
  );
}

const routePaths = [...new Set(ROUTES.map((r) => r.path))];

describe('REST API', () => {
  const { stack, template, logicalId } = synth();
  const methods = methodsByRoute(template);
  const authorizers = resourcesOfType(template, 'AWS::ApiGateway::Authorizer');
  const authorizerOf = (scheme: keyof typeof CREDENTIAL_SCHEMES): string => logicalId(stack.api.authorizers[scheme]);

  it('is one regional REST API named after the stack, execute-api endpoint kept', () => {
    template.resourceCountIs('AWS::ApiGateway::RestApi', 1);
    template.hasResourceProperties('AWS::ApiGateway::RestApi', {
      Name: 'PasswordPolicyService',
      EndpointConfiguration: { Types: ['REGIONAL'] },
      DisableExecuteApiEndpoint: Match.absent(),
    });
  });

  it('has exactly the resources of the route table (each path and its parents)', () => {
    const expected = new Set(routePaths.flatMap((p) => p.split('/').slice(1).map((_, i, parts) => `/${parts.slice(0, i + 1).join('/')}`)));
    expect(new Set(resourcePathsById(template).values())).toEqual(expected);
  });

  it('has a GET and an ANY method on each route path, and no other method', () => {
    const expected = new Set(routePaths.flatMap((p) => [`GET ${p}`, `ANY ${p}`]));
    expect(new Set(methods.keys())).toEqual(expected);
  });

  it.each(ROUTES.map((r) => [`${r.method} ${r.path}${r.query.length > 0 ? `?${r.query.join('&')}` : ''}`, r] as const))(
    '%s: Lambda proxy to its function, behind its scheme authorizer, its query parameters declared optional',
    (_, route) => {
      const method = methods.get(`${route.method} ${route.path}`)!;
      expect(method.AuthorizationType).toBe('CUSTOM');
      expect(method.AuthorizerId).toEqual({ Ref: authorizerOf(route.credentials.name) });
      expect(method.Integration.Type).toBe('AWS_PROXY');
      expect(method.Integration.IntegrationHttpMethod).toBe('POST');
      expect([...referencedIds(method.Integration.Uri)]).toEqual([logicalId(stack.functions[route.function.id])]);
      const declared = ROUTES.filter((r) => r.path === route.path).flatMap((r) => r.query);
      expect(method.RequestParameters).toEqual(Object.fromEntries(declared.map((name) => [`method.request.querystring.${name}`, false])));
    },
  );

  it.each(routePaths)('ANY %s: a 405 mock with Allow: GET and the error envelope, no authorizer', (path) => {
    const method = methods.get(`ANY ${path}`)!;
    expect(method.AuthorizationType).toBe('NONE');
    expect(method.AuthorizerId).toBeUndefined();
    expect(method.Integration).toEqual(
      expect.objectContaining({
        Type: 'MOCK',
        PassthroughBehavior: 'NEVER',
        RequestTemplates: expect.objectContaining({ 'application/json': '{"statusCode": 405}' }),
        IntegrationResponses: [
          {
            StatusCode: '405',
            ResponseParameters: {
              'method.response.header.Allow': "'GET'",
              'method.response.header.Content-Type': "'application/json; charset=utf-8'",
            },
            ResponseTemplates: { 'application/json': errorEnvelope(405, PHRASES.methodNotAllowed) },
          },
        ],
      }),
    );
    expect(method.MethodResponses).toEqual([
      { StatusCode: '405', ResponseParameters: { 'method.response.header.Allow': true, 'method.response.header.Content-Type': true } },
    ]);
    expect(JSON.parse(method.Integration.IntegrationResponses[0].ResponseTemplates['application/json'])).toEqual([
      { errors: [{ message: 'Method Not Allowed' }, { phrase: PHRASES.methodNotAllowed }] },
    ]);
  });

  describe('authorizers', () => {
    it('has one REQUEST authorizer per credential scheme', () => {
      expect(Object.keys(authorizers)).toHaveLength(Object.keys(CREDENTIAL_SCHEMES).length);
      template.allResourcesProperties('AWS::ApiGateway::Authorizer', { Type: 'REQUEST' });
    });

    it.each(Object.values(CREDENTIAL_SCHEMES))('$name: identity sources are the scheme headers, cached 300 s', (scheme) => {
      const props = authorizers[authorizerOf(scheme.name)]?.Properties;
      expect(props.IdentitySource).toBe(scheme.headers.map((h) => `method.request.header.${h}`).join(','));
      expect(props.AuthorizerResultTtlInSeconds).toBe(300);
    });

    it('identity sources are UserID+APIKey for /userapi/ and APIKey for /api/', () => {
      template.hasResourceProperties('AWS::ApiGateway::Authorizer', { IdentitySource: 'method.request.header.UserID,method.request.header.APIKey' });
      template.hasResourceProperties('AWS::ApiGateway::Authorizer', { IdentitySource: 'method.request.header.APIKey' });
    });

    it('both invoke the one authorizer function', () => {
      for (const authorizer of Object.values(authorizers)) {
        expect([...referencedIds(authorizer.Properties.AuthorizerUri)]).toEqual([logicalId(stack.authorizer)]);
      }
    });

    it('API Gateway may invoke the authorizer function from each authorizer, and only from them', () => {
      const permissions = Object.values(resourcesOfType(template, 'AWS::Lambda::Permission')).filter((p) =>
        referencedIds(p.Properties.FunctionName).has(logicalId(stack.authorizer)),
      );
      const sources = permissions.map((p) => [...referencedIds(p.Properties.SourceArn)].filter((id) => id in authorizers));
      expect(sources.flat().sort()).toEqual(Object.keys(authorizers).sort());
      for (const p of permissions) expect(p.Properties).toEqual(expect.objectContaining({ Action: 'lambda:InvokeFunction', Principal: 'apigateway.amazonaws.com' }));
    });

    it('takes the cache TTL from context; 0 disables caching', () => {
      for (const ttl of [60, 0]) {
        const s = synth({ authorizerCacheTtlSeconds: String(ttl) });
        s.template.allResourcesProperties('AWS::ApiGateway::Authorizer', { AuthorizerResultTtlInSeconds: ttl });
      }
      expect(() => synth({ authorizerCacheTtlSeconds: '3601' })).toThrow(/authorizerCacheTtlSeconds must be an integer from 0 to 3600/);
    });
  });

  it('redeploys the stage when an authorizer changes (cdk.json feature flag), so a new TTL takes effect', () => {
    const deploymentId = (t: Template): string[] => Object.keys(resourcesOfType(t, 'AWS::ApiGateway::Deployment'));
    expect(deploymentId(synth({ authorizerCacheTtlSeconds: '60' }).template)).not.toEqual(deploymentId(template));
  });

  describe('stage', () => {
    it("is 'prod', throttled at 50 requests/s with bursts of 100 by default", () => {
      template.resourceCountIs('AWS::ApiGateway::Stage', 1);
      template.hasResourceProperties('AWS::ApiGateway::Stage', {
        StageName: 'prod',
        MethodSettings: [Match.objectLike({ HttpMethod: '*', ResourcePath: '/*', ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 })],
      });
    });

    it('takes its name and throttling from context', () => {
      synth({ stageName: 'v1', throttlingRateLimit: '10', throttlingBurstLimit: '20' }).template.hasResourceProperties('AWS::ApiGateway::Stage', {
        StageName: 'v1',
        MethodSettings: [Match.objectLike({ HttpMethod: '*', ResourcePath: '/*', ThrottlingRateLimit: 10, ThrottlingBurstLimit: 20 })],
      });
    });
  });
});
