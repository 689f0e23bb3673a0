import { App } from 'aws-cdk-lib';
import { PasswordPolicyStack } from '../lib/password-policy-stack';
import { readStackName } from '../lib/settings';

/**
 * Builds the CDK app: one stack (design.md §3). `context` adds to what the CDK CLI passes (cdk.json, -c);
 * the tests call this in-process. The stack is environment-agnostic: it deploys to the CLI's account/region.
 */
export function buildApp(context: Record<string, unknown> = {}, outdir?: string): { app: App; stack: PasswordPolicyStack } {
  const app = new App({ context, ...(outdir ? { outdir } : {}) });
  const stackName = readStackName((key) => app.node.tryGetContext(key));
  const stack = new PasswordPolicyStack(app, stackName, {
    stackName,
    description: 'Password policy retrieval service: REST API, Lambda authorizer and functions, DynamoDB tables',
  });
  return { app, stack };
}

// Run by the CDK CLI (cdk.json: `npx tsx bin/app.ts`); importing this module builds nothing.
if (require.main === module) {
  buildApp().app.synth();
}
