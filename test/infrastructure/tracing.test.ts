import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { resourcesOfType, roleOfFunction, statementsOfRole, synth, type Synthesized } from './synth';

/** Our three functions (the default-policies provider is CDK's own and is not traced). */
const ourFunctions = (s: Synthesized): IFunction[] => [...Object.values(s.stack.functions), s.stack.authorizer];
const functionProps = (s: Synthesized, fn: IFunction) =>
  resourcesOfType(s.template, 'AWS::Lambda::Function')[s.logicalId(fn)]!.Properties;
const xrayStatements = (s: Synthesized, fn: IFunction) =>
  statementsOfRole(s.template, roleOfFunction(s.template, s.logicalId(fn))).filter((st) =>
    [st.Action].flat().some((a: string) => a.startsWith('xray:')),
  );

describe('X-Ray tracing (context tracing)', () => {
  describe('prod (on by default)', () => {
    const prod = synth({ stage: 'prod' });

    it('every function traces actively, and may write its segments', () => {
      for (const fn of ourFunctions(prod)) {
        expect(functionProps(prod, fn).TracingConfig).toEqual({ Mode: 'Active' });
        expect(xrayStatements(prod, fn)).toEqual([
          { Action: ['xray:PutTelemetryRecords', 'xray:PutTraceSegments'], Effect: 'Allow', Resource: '*' },
        ]);
      }
    });

    it('the API stage traces too', () => {
      prod.template.hasResourceProperties('AWS::ApiGateway::Stage', { TracingEnabled: true });
    });

    it('the only statements on every resource are those X-Ray ones (the IAM5 suppression covers nothing else)', () => {
      for (const policy of Object.values(resourcesOfType(prod.template, 'AWS::IAM::Policy'))) {
        for (const statement of policy.Properties.PolicyDocument.Statement) {
          if ([statement.Resource].flat().includes('*'))
            expect([statement.Action].flat().every((a: string) => a.startsWith('xray:'))).toBe(true);
        }
      }
    });

    it('tracing=false turns it off everywhere', () => {
      const off = synth({ stage: 'prod', tracing: 'false' });
      for (const fn of ourFunctions(off)) {
        expect(functionProps(off, fn).TracingConfig).toBeUndefined();
        expect(xrayStatements(off, fn)).toEqual([]);
      }
      off.template.hasResourceProperties('AWS::ApiGateway::Stage', { TracingEnabled: false });
    });
  });

  describe('dev (off by default)', () => {
    it('no function and not the stage', () => {
      const dev = synth({ stage: 'dev' });
      for (const fn of ourFunctions(dev)) expect(functionProps(dev, fn).TracingConfig).toBeUndefined();
      dev.template.hasResourceProperties('AWS::ApiGateway::Stage', { TracingEnabled: false });
    });

    it('tracing=true turns it on', () => {
      const on = synth({ stage: 'dev', tracing: 'true' });
      for (const fn of ourFunctions(on)) expect(functionProps(on, fn).TracingConfig).toEqual({ Mode: 'Active' });
      on.template.hasResourceProperties('AWS::ApiGateway::Stage', { TracingEnabled: true });
    });
  });
});
