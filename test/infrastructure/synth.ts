import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { buildApp } from '../../bin/app';
import type { PasswordPolicyStack } from '../../lib/password-policy-stack';
import { PROJECT_ROOT } from '../../bundling/bundling';

/** The context the CDK CLI passes from cdk.json (feature flags), so tests see the template that deploys. */
export const CDK_JSON_CONTEXT: Record<string, unknown> = JSON.parse(
  readFileSync(path.join(PROJECT_ROOT, 'cdk.json'), 'utf8'),
).context;

/** cdk.json's context, bundling skipped (fast), a fixed nonce (stable templates). */
export const TEST_CONTEXT = { ...CDK_JSON_CONTEXT, 'aws:cdk:bundling-stacks': [], deployNonce: 'test-nonce' };

export interface Synthesized {
  readonly stack: PasswordPolicyStack;
  readonly template: Template;
  /** The logical id of a construct's CloudFormation resource. */
  readonly logicalId: (construct: IConstruct) => string;
}

export function synth(context: Record<string, unknown> = {}): Synthesized {
  const { stack } = buildApp({ ...TEST_CONTEXT, ...context });
  return {
    stack,
    template: Template.fromStack(stack),
    logicalId: (construct) => Stack.of(construct).getLogicalId(construct.node.defaultChild as never),
  };
}

export type CfnResource = {
  Type: string;
  // biome-ignore lint/suspicious/noExplicitAny: CloudFormation's JSON as aws-cdk-lib's Template.toJSON() gives it, read by path
  Properties: any;
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
  Metadata?: Record<string, unknown>;
};

export function resourcesOfType(template: Template, type: string): Record<string, CfnResource> {
  return template.findResources(type) as Record<string, CfnResource>;
}

/** Every logical id a value refers to (Ref and Fn::GetAtt, not pseudo parameters), found at any depth. */
export function referencedIds(value: unknown): Set<string> {
  const ids = new Set<string>();
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) {
      v.forEach(walk);
      return;
    }
    if (v === null || typeof v !== 'object') return;
    const o = v as Record<string, unknown>;
    if (typeof o.Ref === 'string' && !o.Ref.startsWith('AWS::')) ids.add(o.Ref);
    const getAtt = o['Fn::GetAtt'];
    if (Array.isArray(getAtt) && typeof getAtt[0] === 'string') ids.add(getAtt[0]);
    Object.values(o).forEach(walk);
  };
  walk(value);
  return ids;
}

/** The IAM statements of every AWS::IAM::Policy attached to a role. */
// biome-ignore lint/suspicious/noExplicitAny: CloudFormation's JSON as aws-cdk-lib's Template.toJSON() gives it, read by path
export function statementsOfRole(template: Template, roleLogicalId: string): any[] {
  return Object.values(resourcesOfType(template, 'AWS::IAM::Policy'))
    .filter((p) => (p.Properties.Roles as unknown[]).some((r) => referencedIds(r).has(roleLogicalId)))
    .flatMap((p) => p.Properties.PolicyDocument.Statement);
}

/** The role logical id of a Lambda function resource. */
export function roleOfFunction(template: Template, functionLogicalId: string): string {
  const fn = resourcesOfType(template, 'AWS::Lambda::Function')[functionLogicalId];
  if (!fn) throw new Error(`no function ${functionLogicalId}`);
  return [...referencedIds(fn.Properties.Role)][0]!;
}

/**
 * Rebuilds a string CloudFormation assembles with Fn::Join, writing each reference as `{{LogicalId}}`,
 * so a JSON document rendered with tokens in it can be parsed and compared.
 */
export function joinedString(value: unknown): string {
  if (typeof value === 'string') return value;
  const join = (value as Record<string, unknown>)['Fn::Join'] as [string, unknown[]] | undefined;
  if (!join) return `{{${[...referencedIds(value)].join(',')}}}`;
  return join[1].map(joinedString).join(join[0]);
}
