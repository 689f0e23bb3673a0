import { Aspects } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { buildApp } from '../../bin/app';
import { NAG_SUPPRESSIONS } from '../../lib/nag-suppressions';
import { TEST_CONTEXT } from './synth';

/** A stack synthesized with cdk-nag's AwsSolutions pack applied, and what it reported. */
function nagged(context: Record<string, unknown>) {
  const { stack } = buildApp({ ...TEST_CONTEXT, ...context });
  Aspects.of(stack).add(new AwsSolutionsChecks({ verbose: true }));
  const annotations = Annotations.fromStack(stack);
  const lines = (found: ReturnType<Annotations['findError']>) =>
    found.map((m) => `${m.id}: ${String(m.entry.data).split('\n')[0]}`);
  return {
    stack,
    errors: lines(annotations.findError('*', Match.stringLikeRegexp('AwsSolutions-.*'))),
    warnings: lines(annotations.findWarning('*', Match.stringLikeRegexp('AwsSolutions-.*'))),
  };
}

interface Suppression {
  readonly id: string;
  readonly reason: string;
  readonly applies_to?: unknown[];
}

/** Every suppression recorded in the template's cdk_nag metadata, with the logical id it sits on. */
function suppressionsOf(template: Template): { resource: string; suppression: Suppression }[] {
  return Object.entries(
    template.toJSON().Resources as Record<string, { Metadata?: { cdk_nag?: { rules_to_suppress: Suppression[] } } }>,
  ).flatMap(([resource, r]) =>
    (r.Metadata?.cdk_nag?.rules_to_suppress ?? []).map((suppression) => ({ resource, suppression })),
  );
}

describe('cdk-nag AwsSolutions', () => {
  const prod = nagged({ stage: 'prod' });

  it('prod (what `cdk synth -c stage=prod` deploys): no unsuppressed error and no warning', () => {
    expect(prod.errors).toEqual([]);
    expect(prod.warnings).toEqual([]);
  });

  it.each([
    ['prod with an alarm topic', { stage: 'prod', alarmTopic: 'true' }],
    [
      'prod, everything optional off',
      { stage: 'prod', waf: 'false', tracing: 'false', alarms: 'false', apiGatewayCloudWatchRole: 'false' },
    ],
    ['dev', { stage: 'dev' }],
    [
      'dev, everything optional on',
      {
        stage: 'dev',
        waf: 'true',
        tracing: 'true',
        alarms: 'true',
        alarmTopic: 'arn:aws:sns:eu-west-1:123456789012:ops',
      },
    ],
    ['prod with the Pwned Passwords check (no isolated network)', { stage: 'prod', pwnedPasswordsCheck: 'true' }],
    ['dev with the Pwned Passwords check', { stage: 'dev', pwnedPasswordsCheck: 'true' }],
  ])('%s: no unsuppressed error and no warning', (_, context) => {
    const { errors, warnings } = nagged(context);
    expect(errors).toEqual([]);
    expect(warnings).toEqual([]);
  });

  describe('suppressions', () => {
    const suppressions = suppressionsOf(Template.fromStack(prod.stack));

    it('each names an AwsSolutions rule and a reason of its own', () => {
      expect(suppressions.length).toBeGreaterThan(0);
      for (const { suppression } of suppressions) {
        expect(suppression.id).toMatch(/^AwsSolutions-[A-Z]+\d+$/);
        expect(suppression.reason.length).toBeGreaterThanOrEqual(40);
      }
    });

    it('come only from NAG_SUPPRESSIONS, and the managed-policy and wildcard ones name exactly what they accept', () => {
      const known = new Set(Object.values(NAG_SUPPRESSIONS).map((s) => `${s.id}|${s.reason}`));
      for (const { suppression } of suppressions)
        expect(known.has(`${suppression.id}|${suppression.reason}`)).toBe(true);
      for (const { suppression } of suppressions.filter((s) =>
        ['AwsSolutions-IAM4', 'AwsSolutions-IAM5'].includes(s.suppression.id),
      )) {
        expect(suppression.applies_to).toHaveLength(1);
      }
    });

    it('are exactly these in prod: rule → how many resources carry it', () => {
      const count: Record<string, number> = {};
      for (const { suppression } of suppressions) count[suppression.id] = (count[suppression.id] ?? 0) + 1;
      expect(count).toEqual({
        // The basic-execution policy of our 5 function roles and of the custom resource provider's role, the API Gateway logging role,
        // and the VPC access policy of EvaluatePassword's role (in its isolated network: the Pwned Passwords check is off).
        'AwsSolutions-IAM4': 8,
        // Our 5 functions (4 route-bound, the authorizer) on Node.js 22.
        'AwsSolutions-L1': 5,
        // X-Ray's Resource * in our 5 function policies.
        'AwsSolutions-IAM5': 5,
        // 5 GET methods and 1 POST method behind the REQUEST authorizers, 6 ANY 405 mocks.
        'AwsSolutions-COG4': 12,
        'AwsSolutions-APIG4': 6,
      });
    });

    it('COG4 sits on every route method (the POST too) and, with APIG4, on every ANY mock', () => {
      const template = Template.fromStack(prod.stack);
      const methods = template.findResources('AWS::ApiGateway::Method') as Record<
        string,
        { Properties: { HttpMethod: string; ResourceId: unknown } }
      >;
      const ruleIdsOn = (id: string) =>
        suppressions
          .filter((s) => s.resource === id)
          .map((s) => s.suppression.id)
          .sort();
      const byMethod: Record<string, string[][]> = {};
      for (const [id, m] of Object.entries(methods)) (byMethod[m.Properties.HttpMethod] ??= []).push(ruleIdsOn(id));
      expect(byMethod).toEqual({
        GET: [0, 1, 2, 3, 4].map(() => ['AwsSolutions-COG4']),
        POST: [['AwsSolutions-COG4']],
        ANY: [0, 1, 2, 3, 4, 5].map(() => ['AwsSolutions-APIG4', 'AwsSolutions-COG4']),
      });
    });

    it('the VPC access policy is accepted only on EvaluatePassword in its isolated network, and only while the check is off', () => {
      const vpcAccess = (found: ReturnType<typeof suppressionsOf>) =>
        found.filter((s) =>
          String(JSON.stringify(s.suppression.applies_to)).includes('AWSLambdaVPCAccessExecutionRole'),
        );
      const prodRole = prod.stack.functions.EvaluatePassword.role!.node.defaultChild as never;
      expect(vpcAccess(suppressions).map((s) => s.resource)).toEqual([prod.stack.getLogicalId(prodRole)]);
      expect(
        vpcAccess(suppressionsOf(Template.fromStack(nagged({ stage: 'prod', pwnedPasswordsCheck: 'true' }).stack))),
      ).toEqual([]);
    });

    it('APIG3 (WAF) is suppressed only when WAF is off', () => {
      expect(suppressions.some((s) => s.suppression.id === 'AwsSolutions-APIG3')).toBe(false);
      const dev = suppressionsOf(Template.fromStack(nagged({ stage: 'dev' }).stack));
      expect(dev.filter((s) => s.suppression.id === 'AwsSolutions-APIG3')).toHaveLength(1);
    });
  });

  it('context nag=true runs the same checks on the real app', () => {
    const { app } = buildApp({ ...TEST_CONTEXT, nag: 'true' });
    expect(Aspects.of(app).all.some((aspect) => aspect instanceof AwsSolutionsChecks)).toBe(true);
    expect(Aspects.of(buildApp({ ...TEST_CONTEXT }).app).all).toEqual([]);
  });
});
