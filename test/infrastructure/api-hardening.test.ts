import { Match } from 'aws-cdk-lib/assertions';
import { errorEnvelope, PHRASES } from '../../functions/http';
import { ROUTES } from '../../functions/routes';
import { ACCESS_LOG_FIELDS } from '../../lib/api-logging';
import { joinedString, referencedIds, resourcesOfType, synth, type Synthesized } from './synth';

const stageOf = (s: Synthesized) => {
  const stages = resourcesOfType(s.template, 'AWS::ApiGateway::Stage');
  expect(Object.keys(stages)).toHaveLength(1);
  return Object.values(stages)[0]!;
};

describe('API Gateway hardening', () => {
  const prod = synth({ stage: 'prod' });
  const stage = stageOf(prod);
  const restApiId = prod.logicalId(prod.stack.api.api);
  const stageId = prod.logicalId(prod.stack.api.api.deploymentStage);

  describe('access log', () => {
    const format: string = stage.Properties.AccessLogSetting.Format;
    const fields = JSON.parse(format) as Record<string, string>;

    it('goes to its own log group, with the stage preset retention, retained in prod', () => {
      const [groupId] = [...referencedIds(stage.Properties.AccessLogSetting.DestinationArn)];
      expect(groupId).toBe(prod.logicalId(prod.stack.api.logs.access));
      const group = resourcesOfType(prod.template, 'AWS::Logs::LogGroup')[groupId!]!;
      expect(group.Properties.RetentionInDays).toBe(90);
      expect(group.DeletionPolicy).toBe('Retain');
    });

    it('is one JSON object per request with the request, caller, status, latency, authorizer and error fields', () => {
      expect(fields).toEqual({
        requestId: '$context.requestId',
        ip: '$context.identity.sourceIp',
        requestTime: '$context.requestTime',
        requestTimeEpoch: '$context.requestTimeEpoch',
        httpMethod: '$context.httpMethod',
        resourcePath: '$context.resourcePath',
        status: '$context.status',
        protocol: '$context.protocol',
        responseLength: '$context.responseLength',
        responseLatency: '$context.responseLatency',
        integrationLatency: '$context.integrationLatency',
        integrationStatus: '$context.integrationStatus',
        authorizerStatus: '$context.authorizer.status',
        authorizerLatency: '$context.authorizer.latency',
        authorizerError: '$context.authorizer.error',
        principalId: '$context.authorizer.principalId',
        errorResponseType: '$context.error.responseType',
        errorMessage: '$context.error.message',
        wafResponseCode: '$context.wafResponseCode',
        xrayTraceId: '$context.xrayTraceId',
      });
      expect(Object.keys(fields)).toEqual(Object.keys(ACCESS_LOG_FIELDS));
    });

    it('records the resource path, never the raw path (a key sent as a path segment would be written whole)', () => {
      expect(fields.resourcePath).toBe('$context.resourcePath');
      expect(format).not.toContain('$context.path');
    });

    it('holds no header value, no API key, no query string and no body (each value is one quoted $context variable)', () => {
      for (const value of Object.values(fields)) expect(value).toMatch(/^\$context\.[A-Za-z.]+$/);
      expect(format.toLowerCase()).not.toContain('header');
      for (const forbidden of [
        'requestOverride',
        'responseOverride',
        'identity.apiKey',
        'userAgent',
        'querystring',
        '$input',
        'authorizer.claims',
        'clientCert',
      ]) {
        expect(format).not.toContain(forbidden);
      }
    });
  });

  describe('execution logging', () => {
    it('the stage logs errors only and never the data trace (which would log headers and bodies)', () => {
      expect(stage.Properties.MethodSettings).toEqual([
        expect.objectContaining({
          HttpMethod: '*',
          ResourcePath: '/*',
          LoggingLevel: 'ERROR',
          DataTraceEnabled: false,
        }),
      ]);
      expect(stage.Properties.MethodSettings[0].MetricsEnabled).toBeUndefined();
    });

    it("writes to a log group the stack creates under API Gateway's name, with the preset retention, before the stage exists", () => {
      const groupId = prod.logicalId(prod.stack.api.logs.node.findChild('Execution'));
      const group = resourcesOfType(prod.template, 'AWS::Logs::LogGroup')[groupId]!;
      expect(joinedString(group.Properties.LogGroupName)).toBe(`API-Gateway-Execution-Logs_{{${restApiId}}}/prod`);
      expect(group.Properties.RetentionInDays).toBe(90);
      expect(group.DeletionPolicy).toBe('Retain');
      expect(prod.template.toJSON().Resources[stageId].DependsOn).toEqual(expect.arrayContaining([groupId]));
    });

    it("sets the account's CloudWatch Logs role for API Gateway (account-wide, per region), retained with the stack, before the stage", () => {
      const accounts = resourcesOfType(prod.template, 'AWS::ApiGateway::Account');
      expect(Object.keys(accounts)).toHaveLength(1);
      const [accountId, account] = Object.entries(accounts)[0]!;
      expect(account.DeletionPolicy).toBe('Retain');
      const [roleId] = [...referencedIds(account.Properties.CloudWatchRoleArn)];
      const role = resourcesOfType(prod.template, 'AWS::IAM::Role')[roleId!]!;
      expect(role.DeletionPolicy).toBe('Retain');
      expect(role.Properties.AssumeRolePolicyDocument.Statement).toEqual([
        expect.objectContaining({
          Action: 'sts:AssumeRole',
          Effect: 'Allow',
          Principal: { Service: 'apigateway.amazonaws.com' },
        }),
      ]);
      expect(JSON.stringify(role.Properties.ManagedPolicyArns)).toContain(
        'service-role/AmazonAPIGatewayPushToCloudWatchLogs',
      );
      expect(prod.template.toJSON().Resources[stageId].DependsOn).toEqual(expect.arrayContaining([accountId]));
    });

    it('apiGatewayCloudWatchRole=false leaves the account setting alone (it must already be set), logging stays on', () => {
      const s = synth({ stage: 'prod', apiGatewayCloudWatchRole: 'false' });
      s.template.resourceCountIs('AWS::ApiGateway::Account', 0);
      expect(
        Object.keys(resourcesOfType(s.template, 'AWS::IAM::Role')).some((id) => id.includes('CloudWatchRole')),
      ).toBe(false);
      expect(stageOf(s).Properties.MethodSettings[0].LoggingLevel).toBe('ERROR');
      expect(stageOf(s).Properties.AccessLogSetting).toBeDefined();
    });
  });

  describe('stage throttling', () => {
    it('comes from the stage preset and from context', () => {
      expect(stage.Properties.MethodSettings[0]).toEqual(
        expect.objectContaining({ ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 }),
      );
      const s = synth({ stage: 'prod', throttlingRateLimit: '7', throttlingBurstLimit: '9' });
      expect(stageOf(s).Properties.MethodSettings[0]).toEqual(
        expect.objectContaining({ ThrottlingRateLimit: 7, ThrottlingBurstLimit: 9, LoggingLevel: 'ERROR' }),
      );
    });
  });

  describe('WAF (context waf, wafRateLimit)', () => {
    const acls = resourcesOfType(prod.template, 'AWS::WAFv2::WebACL');
    const [aclId, acl] = Object.entries(acls)[0] ?? [];

    it('prod: one regional web ACL that allows by default and blocks a source IP over 1000 requests in 5 minutes', () => {
      expect(Object.keys(acls)).toHaveLength(1);
      expect(acl!.Properties).toEqual(expect.objectContaining({ Scope: 'REGIONAL', DefaultAction: { Allow: {} } }));
      expect(acl!.Properties.Rules).toEqual([
        expect.objectContaining({
          Name: 'RateLimitPerSourceIp',
          Priority: 0,
          Statement: { RateBasedStatement: { AggregateKeyType: 'IP', Limit: 1000, EvaluationWindowSec: 300 } },
          Action: { Block: { CustomResponse: { ResponseCode: 429, CustomResponseBodyKey: 'Throttled' } } },
        }),
      ]);
    });

    it('answers a blocked request 429 with the error envelope', () => {
      expect(acl!.Properties.CustomResponseBodies).toEqual({
        Throttled: { ContentType: 'APPLICATION_JSON', Content: errorEnvelope(429, PHRASES.throttled) },
      });
      expect(JSON.parse(acl!.Properties.CustomResponseBodies.Throttled.Content)).toEqual([
        { errors: [{ message: 'Too Many Requests' }, { phrase: PHRASES.throttled }] },
      ]);
    });

    it('keeps CloudWatch metrics but no sampled requests (they would keep the API key headers)', () => {
      for (const config of [
        acl!.Properties.VisibilityConfig,
        ...acl!.Properties.Rules.map((r: { VisibilityConfig: unknown }) => r.VisibilityConfig),
      ]) {
        expect(config).toEqual(
          expect.objectContaining({
            CloudWatchMetricsEnabled: true,
            SampledRequestsEnabled: false,
            MetricName: expect.stringMatching(/^PasswordPolicyService-/),
          }),
        );
      }
    });

    it('is associated with the API stage', () => {
      const associations = Object.values(resourcesOfType(prod.template, 'AWS::WAFv2::WebACLAssociation'));
      expect(associations).toHaveLength(1);
      expect(associations[0]!.Properties.WebACLArn).toEqual({ 'Fn::GetAtt': [aclId, 'Arn'] });
      expect(joinedString(associations[0]!.Properties.ResourceArn)).toBe(
        `arn:{{}}:apigateway:{{}}::/restapis/{{${restApiId}}}/stages/{{${stageId}}}`,
      );
    });

    it('takes the limit from wafRateLimit', () => {
      const s = synth({ stage: 'prod', wafRateLimit: '300' });
      s.template.hasResourceProperties('AWS::WAFv2::WebACL', {
        Rules: [
          Match.objectLike({
            Statement: { RateBasedStatement: Match.objectLike({ Limit: 300, AggregateKeyType: 'IP' }) },
          }),
        ],
      });
    });

    it.each([
      ['prod with waf=false', { stage: 'prod', waf: 'false' }],
      ['dev', { stage: 'dev' }],
    ])('%s: no web ACL and no association', (_, context) => {
      const s = synth(context);
      s.template.resourceCountIs('AWS::WAFv2::WebACL', 0);
      s.template.resourceCountIs('AWS::WAFv2::WebACLAssociation', 0);
    });

    it('dev with waf=true has one', () => {
      synth({ stage: 'dev', waf: 'true' }).template.resourceCountIs('AWS::WAFv2::WebACLAssociation', 1);
    });
  });

  describe('request validation', () => {
    const validators = resourcesOfType(prod.template, 'AWS::ApiGateway::RequestValidator');
    const methods = Object.values(resourcesOfType(prod.template, 'AWS::ApiGateway::Method'));

    it('one validator of request parameters (and bodies, though no method declares a body model) on the API', () => {
      expect(Object.values(validators)).toEqual([
        expect.objectContaining({
          Properties: { RestApiId: { Ref: restApiId }, ValidateRequestParameters: true, ValidateRequestBody: true },
        }),
      ]);
      for (const method of methods) expect(method.Properties.RequestModels).toBeUndefined();
    });

    it('guards every route method (GET and POST), whose declared query parameters (those of its routes) all stay optional', () => {
      const routeMethods = methods.filter((m) => m.Properties.HttpMethod !== 'ANY');
      expect(routeMethods).toHaveLength(new Set(ROUTES.map((r) => `${r.method} ${r.path}`)).size);
      expect(routeMethods.map((m) => m.Properties.HttpMethod).sort()).toEqual([
        'GET',
        'GET',
        'GET',
        'GET',
        'GET',
        'POST',
      ]);
      for (const method of routeMethods) {
        expect(method.Properties.RequestValidatorId).toEqual({ Ref: Object.keys(validators)[0] });
        const parameters: Record<string, boolean> = method.Properties.RequestParameters ?? {};
        const declared = Object.keys(parameters);
        expect(Object.values(parameters).every((required) => required === false)).toBe(true);
        expect(
          declared.every((p) => ROUTES.some((r) => r.query.some((q) => p === `method.request.querystring.${q}`))),
        ).toBe(true);
      }
    });

    it('leaves the 405 mocks alone: they answer every request the same way', () => {
      for (const method of methods.filter((m) => m.Properties.HttpMethod === 'ANY'))
        expect(method.Properties.RequestValidatorId).toBeUndefined();
    });
  });
});
