import { App, Aspects } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { PasswordPolicyStack } from '../lib/password-policy-stack';
import { readStackName } from '../lib/settings';

/**
 * Builds the CDK app: one stack. `context` adds to what the CDK CLI passes (cdk.json, -c);
 * the tests call this in-process. The stack is environment-agnostic: it deploys to the CLI's account/region.
 * Context nag=true runs cdk-nag's AwsSolutions checks on the synth; an unsuppressed finding fails it.
 */
export function buildApp(
  context: Record<string, unknown> = {},
  outdir?: string,
): { app: App; stack: PasswordPolicyStack } {
  const app = new App({ context, ...(outdir ? { outdir } : {}) });
  const stackName = readStackName((key) => app.node.tryGetContext(key));
  const stack = new PasswordPolicyStack(app, stackName, {
    stackName,
    description: 'Password policy retrieval service: REST API, Lambda authorizer and functions, DynamoDB tables',
  });
  const nag = app.node.tryGetContext('nag');
  if (nag === true || nag === 'true') Aspects.of(app).add(new AwsSolutionsChecks({ verbose: true }));
  return { app, stack };
}

// Run by the CDK CLI (cdk.json: `npx tsx bin/app.ts`); importing this module builds nothing.
if (require.main === module) {
  buildApp().app.synth();
}
