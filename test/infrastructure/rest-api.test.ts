import { Match, type Template } from 'aws-cdk-lib/assertions';
import { errorEnvelope, methodNotAllowedPhrase } from '../../functions/http';
import {
  CREDENTIAL_SCHEMES,
  DEFAULT_USAGE_PLAN,
  FUNCTIONS,
  ROUTES,
  resourcePaths,
  USAGE_PLAN_NAMES,
} from '../../functions/routes';
import { STACK_OUTPUTS, USAGE_PLANS } from '../../lib/deployment';
import { joinedString, referencedIds, resourcesOfType, synth } from './synth';

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
// biome-ignore lint/suspicious/noExplicitAny: CloudFormation's JSON as aws-cdk-lib's Template.toJSON() gives it, read by path
function methodsByRoute(template: Template): Map<string, Record<string, any>> {
  const paths = resourcePathsById(template);
  return new Map(
    Object.values(resourcesOfType(template, 'AWS::ApiGateway::Method')).map((m) => [
      `${m.Properties.HttpMethod} ${paths.get(m.Properties.ResourceId.Ref) ?? '/'}`,
      m.Properties,
    ]),
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
    const expected = new Set(
      routePaths.flatMap((p) =>
        p
          .split('/')
          .slice(1)
          .map((_, i, parts) => `/${parts.slice(0, i + 1).join('/')}`),
      ),
    );
    expect(new Set(resourcePathsById(template).values())).toEqual(expected);
  });

  it('has a method per route method and an ANY method on each route path, and no other method', () => {
    const expected = new Set(
      resourcePaths().flatMap((r) => [...r.methods.map((m) => `${m} ${r.path}`), `ANY ${r.path}`]),
    );
    expect(new Set(methods.keys())).toEqual(expected);
    // Pinned, so a change of the route table is a visible change here too.
    expect([...methods.keys()].filter((k) => !k.startsWith('ANY ')).sort()).toEqual([
      'GET /api/generatepassword',
      'GET /api/passwordgenerator',
      'GET /api/passwordstrength',
      'GET /userapi/generatepassword',
      'GET /userapi/passwordgenerator',
      'POST /api/passwordstrength/evaluate',
    ]);
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
      const declared = ROUTES.filter((r) => r.path === route.path && r.method === route.method).flatMap((r) => r.query);
      expect(method.RequestParameters ?? {}).toEqual(
        Object.fromEntries(declared.map((name) => [`method.request.querystring.${name}`, false])),
      );
    },
  );

  it.each(resourcePaths().map((r) => [r.path, r.methods.join(', '), r.methods] as const))(
    'ANY %s: a 405 mock with Allow: %s and the error envelope naming the same, no authorizer',
    (path, allow, allowed) => {
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
                'method.response.header.Allow': `'${allow}'`,
                'method.response.header.Content-Type': "'application/json; charset=utf-8'",
              },
              ResponseTemplates: { 'application/json': errorEnvelope(405, methodNotAllowedPhrase(allowed)) },
            },
          ],
        }),
      );
      expect(method.MethodResponses).toEqual([
        {
          StatusCode: '405',
          ResponseParameters: { 'method.response.header.Allow': true, 'method.response.header.Content-Type': true },
        },
      ]);
      expect(JSON.parse(method.Integration.IntegrationResponses[0].ResponseTemplates['application/json'])).toEqual([
        { errors: [{ message: 'Method Not Allowed' }, { phrase: methodNotAllowedPhrase(allowed) }] },
      ]);
    },
  );

  it("the GET paths' 405 mocks still say GET, literally", () => {
    for (const path of ['/userapi/passwordgenerator', '/userapi/generatepassword', '/api/passwordstrength']) {
      const [response] = methods.get(`ANY ${path}`)!.Integration.IntegrationResponses;
      expect(response.ResponseParameters['method.response.header.Allow']).toBe("'GET'");
      expect(JSON.parse(response.ResponseTemplates['application/json'])).toEqual([
        { errors: [{ message: 'Method Not Allowed' }, { phrase: 'Only GET is supported on this path.' }] },
      ]);
    }
  });

  describe('POST /api/passwordstrength/evaluate', () => {
    const path = '/api/passwordstrength/evaluate';

    it('is a child resource of /api/passwordstrength, each with its own methods', () => {
      const resources = resourcesOfType(template, 'AWS::ApiGateway::Resource');
      const byPath = new Map([...resourcePathsById(template)].map(([id, p]) => [p, id]));
      expect(resources[byPath.get(path)!]!.Properties).toEqual(
        expect.objectContaining({ PathPart: 'evaluate', ParentId: { Ref: byPath.get('/api/passwordstrength') } }),
      );
      expect(methods.has('GET /api/passwordstrength')).toBe(true);
      expect(methods.has('ANY /api/passwordstrength')).toBe(true);
    });

    it('is behind the StrengthKeyAuthorizer (CUSTOM), a Lambda proxy to the EvaluatePassword function, with the request validator', () => {
      const method = methods.get(`POST ${path}`)!;
      expect(method.AuthorizationType).toBe('CUSTOM');
      expect(method.AuthorizerId).toEqual({ Ref: authorizerOf('strengthKey') });
      expect(authorizers[authorizerOf('strengthKey')]!.Properties.Name).toBe('StrengthKeyAuthorizer');
      expect(method.Integration.Type).toBe('AWS_PROXY');
      expect(method.Integration.IntegrationHttpMethod).toBe('POST');
      expect([...referencedIds(method.Integration.Uri)]).toEqual([logicalId(stack.functions.EvaluatePassword)]);
      expect(FUNCTIONS.evaluatePassword.id).toBe('EvaluatePassword');
      expect(method.RequestValidatorId).toEqual({
        Ref: Object.keys(resourcesOfType(template, 'AWS::ApiGateway::RequestValidator'))[0],
      });
      // No body model: the handler validates the body (with phrases the local gateway gives too).
      expect(method.RequestModels).toBeUndefined();
      expect(method.RequestParameters ?? {}).toEqual({});
    });

    it('has no GET method (and no other route method): its ANY mock answers 405 Allow: POST', () => {
      expect([...methods.keys()].filter((k) => k.endsWith(` ${path}`)).sort()).toEqual([`ANY ${path}`, `POST ${path}`]);
      const [response] = methods.get(`ANY ${path}`)!.Integration.IntegrationResponses;
      expect(response.ResponseParameters['method.response.header.Allow']).toBe("'POST'");
      expect(response.ResponseTemplates['application/json']).toBe(
        '[{"errors":[{"message":"Method Not Allowed"},{"phrase":"Only POST is supported on this path."}]}]',
      );
    });

    it('API Gateway may invoke the EvaluatePassword function for this method', () => {
      const permissions = Object.values(resourcesOfType(template, 'AWS::Lambda::Permission')).filter((p) =>
        referencedIds(p.Properties.FunctionName).has(logicalId(stack.functions.EvaluatePassword)),
      );
      expect(permissions.length).toBeGreaterThan(0);
      expect(permissions.map((p) => joinedString(p.Properties.SourceArn))).toContainEqual(
        expect.stringMatching(/\/POST\/api\/passwordstrength\/evaluate$/),
      );
    });
  });

  describe('authorizers', () => {
    it('has one REQUEST authorizer per credential scheme', () => {
      expect(Object.keys(authorizers)).toHaveLength(Object.keys(CREDENTIAL_SCHEMES).length);
      template.allResourcesProperties('AWS::ApiGateway::Authorizer', { Type: 'REQUEST' });
    });

    it.each(Object.values(CREDENTIAL_SCHEMES))(
      '$name: identity sources are the scheme headers, cached 300 s',
      (scheme) => {
        const props = authorizers[authorizerOf(scheme.name)]?.Properties;
        expect(props.IdentitySource).toBe(scheme.headers.map((h) => `method.request.header.${h}`).join(','));
        expect(props.AuthorizerResultTtlInSeconds).toBe(300);
      },
    );

    it('three definitions: UserID+APIKey for /userapi/, APIKey for the generator API and APIKey for the strength API', () => {
      const byName = Object.fromEntries(
        Object.values(authorizers).map((a) => [a.Properties.Name, a.Properties.IdentitySource]),
      );
      expect(byName).toEqual({
        GeneratorUserAuthorizer: 'method.request.header.UserID,method.request.header.APIKey',
        GeneratorKeyAuthorizer: 'method.request.header.APIKey',
        StrengthKeyAuthorizer: 'method.request.header.APIKey',
      });
    });

    it('each path is behind the authorizer of exactly its key kind', () => {
      const resources = resourcesOfType(template, 'AWS::ApiGateway::Resource');
      const pathOf = (id: string): string => {
        const r = resources[id]!.Properties;
        const parent = (r.ParentId as { Ref?: string }).Ref;
        return `${parent && parent in resources ? pathOf(parent) : ''}/${r.PathPart}`;
      };
      const behind: Record<string, string> = {};
      for (const m of Object.values(resourcesOfType(template, 'AWS::ApiGateway::Method'))) {
        if (m.Properties.HttpMethod === 'ANY') continue;
        behind[pathOf((m.Properties.ResourceId as { Ref: string }).Ref)] =
          authorizers[(m.Properties.AuthorizerId as { Ref: string }).Ref]!.Properties.Name;
      }
      expect(behind).toEqual({
        '/userapi/passwordgenerator': 'GeneratorUserAuthorizer',
        '/userapi/generatepassword': 'GeneratorUserAuthorizer',
        '/api/passwordgenerator': 'GeneratorKeyAuthorizer',
        '/api/generatepassword': 'GeneratorKeyAuthorizer',
        '/api/passwordstrength': 'StrengthKeyAuthorizer',
        '/api/passwordstrength/evaluate': 'StrengthKeyAuthorizer',
      });
    });

    it('all three invoke the one authorizer function', () => {
      for (const authorizer of Object.values(authorizers)) {
        expect([...referencedIds(authorizer.Properties.AuthorizerUri)]).toEqual([logicalId(stack.authorizer)]);
      }
    });

    it('API Gateway may invoke the authorizer function from each authorizer, and only from them', () => {
      const permissions = Object.values(resourcesOfType(template, 'AWS::Lambda::Permission')).filter((p) =>
        referencedIds(p.Properties.FunctionName).has(logicalId(stack.authorizer)),
      );
      const sources = permissions.map((p) =>
        [...referencedIds(p.Properties.SourceArn)].filter((id) => id in authorizers),
      );
      expect(sources.flat().sort()).toEqual(Object.keys(authorizers).sort());
      for (const p of permissions)
        expect(p.Properties).toEqual(
          expect.objectContaining({ Action: 'lambda:InvokeFunction', Principal: 'apigateway.amazonaws.com' }),
        );
    });

    it('takes the cache TTL from context; 0 disables caching', () => {
      for (const ttl of [60, 0]) {
        const s = synth({ authorizerCacheTtlSeconds: String(ttl) });
        s.template.allResourcesProperties('AWS::ApiGateway::Authorizer', { AuthorizerResultTtlInSeconds: ttl });
      }
      expect(() => synth({ authorizerCacheTtlSeconds: '3601' })).toThrow(
        /authorizerCacheTtlSeconds must be an integer from 0 to 3600/,
      );
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
        MethodSettings: [
          Match.objectLike({ HttpMethod: '*', ResourcePath: '/*', ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 }),
        ],
      });
    });

    it('takes its name and throttling from context', () => {
      synth({ stageName: 'v1', throttlingRateLimit: '10', throttlingBurstLimit: '20' }).template.hasResourceProperties(
        'AWS::ApiGateway::Stage',
        {
          StageName: 'v1',
          MethodSettings: [
            Match.objectLike({
              HttpMethod: '*',
              ResourcePath: '/*',
              ThrottlingRateLimit: 10,
              ThrottlingBurstLimit: 20,
            }),
          ],
        },
      );
    });
  });
});

describe('per-credential usage plans (docs/operations.md#rate-limits-per-credential)', () => {
  const { template } = synth();
  const methods = methodsByRoute(template);

  it('meters the API key the authorizer names: the key source is AUTHORIZER', () => {
    template.hasResourceProperties('AWS::ApiGateway::RestApi', { ApiKeySourceType: 'AUTHORIZER' });
  });

  it('every route method requires its usage key; the 405 mocks, which reach nothing, do not', () => {
    for (const [route, method] of methods)
      expect([route, method.ApiKeyRequired === true]).toEqual([route, !route.startsWith('ANY ')]);
  });

  it('one usage plan per USAGE_PLANS entry, with its rate, burst and daily quota, on the stage', () => {
    const plans = Object.values(resourcesOfType(template, 'AWS::ApiGateway::UsagePlan')).map((p) => p.Properties);
    expect(plans.map((p) => [p.UsagePlanName, p.Throttle, p.Quota])).toEqual(
      Object.entries(USAGE_PLANS).map(([name, plan]) => [
        `PasswordPolicyService-${name}`,
        { RateLimit: plan.rateLimit, BurstLimit: plan.burstLimit },
        { Limit: plan.quotaPerDay, Period: 'DAY' },
      ]),
    );
    for (const plan of plans)
      expect(plan.ApiStages).toEqual([{ ApiId: expect.anything(), Stage: expect.anything(), Throttle: {} }]);
    expect(USAGE_PLANS[DEFAULT_USAGE_PLAN]).toEqual({ rateLimit: 10, burstLimit: 20, quotaPerDay: 100_000 });
  });

  it('outputs each plan id for the credentials CLI', () => {
    expect(Object.values(STACK_OUTPUTS.usagePlans)).toEqual(['UsagePlanStandardId', 'UsagePlanHighId']);
    for (const name of USAGE_PLAN_NAMES)
      expect(Object.keys(template.findOutputs(STACK_OUTPUTS.usagePlans[name]))).toEqual([
        STACK_OUTPUTS.usagePlans[name],
      ]);
  });
});
