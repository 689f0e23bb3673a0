import { SERVICE_METRICS } from '../../functions/runtime';
import { resourcesOfType, synth } from './synth';

describe('the operations dashboard', () => {
  it('exists in prod, named after the stack, graphing every custom metric, each function and the alarm states', () => {
    const prod = synth({ stage: 'prod' });
    const dashboards = Object.values(resourcesOfType(prod.template, 'AWS::CloudWatch::Dashboard'));
    expect(dashboards).toHaveLength(1);
    expect(dashboards[0]!.Properties.DashboardName).toBe('PasswordPolicyService');
    const body = JSON.stringify(dashboards[0]!.Properties.DashboardBody);
    for (const name of Object.values(SERVICE_METRICS.names)) expect(body).toContain(`\\"${name}\\"`);
    expect(Object.keys(prod.stack.functions)).toContain('EvaluatePassword');
    for (const fn of [...Object.values(prod.stack.functions), prod.stack.authorizer])
      expect(body).toContain(prod.logicalId(fn));
    for (const title of [
      'API requests and errors',
      'API latency (p50, p99)',
      'Function errors and throttles',
      'Policy cache',
      'Alarms',
    ])
      expect(body).toContain(title);
  });

  it('is left out of dev, and wherever dashboard=false', () => {
    for (const context of [{ stage: 'dev' }, { stage: 'prod', dashboard: 'false' }]) {
      expect(Object.keys(resourcesOfType(synth(context).template, 'AWS::CloudWatch::Dashboard'))).toEqual([]);
    }
  });
});
