import { App, Token } from 'aws-cdk-lib';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { TableKind } from '../functions/repositories/tables';
import { PasswordPolicyStack } from '../lib/password-policy-stack';

/**
 * The environment the stack gives each function, read off the stack itself: lib/password-policy-stack.ts is
 * built in memory (bundling skipped, the default stage, as a bare `cdk deploy` builds it) and each function's
 * `Environment.Variables` are taken from its CloudFormation resource. So the bench runs the functions with
 * whatever the stack sets (log level, metrics namespace, cache TTL, DynamoDB budget, ...), whichever file of
 * lib/ a setting lives in, with nothing copied here. A table reference becomes the bench's local table name.
 */

export interface DeployedFunction {
  readonly environment: Record<string, string>;
  readonly memoryMiB: number;
}

export interface Deployment {
  /** The stage the stack was built for (its preset sets the log level). */
  readonly stage: string;
  /** Every function of the stack (FUNCTIONS and the authorizer) by its id. */
  readonly functions: Record<string, DeployedFunction>;
}

export function deployedFunctions(
  tableNames: Readonly<Record<TableKind, string>>,
  context: Record<string, unknown> = {},
): Deployment {
  const stack = new PasswordPolicyStack(
    new App({ context: { 'aws:cdk:bundling-stacks': [], ...context } }),
    'PasswordPolicyServiceBench',
  );
  // A table's name is a reference in the template: its resolved form is what to look for in a variable.
  const tableOf = new Map<string, TableKind>(
    Object.entries(stack.tables).map(([kind, table]) => [
      JSON.stringify(stack.resolve(table.tableName)),
      kind as TableKind,
    ]),
  );
  const all: [string, IFunction][] = [
    ...Object.entries(stack.functions),
    [stack.authorizer.node.scope!.node.id, stack.authorizer],
  ];
  const functions = Object.fromEntries(
    all.map(([id, fn]) => {
      const cfn = fn.node.defaultChild as CfnFunction;
      const resolved = stack.resolve(cfn.environment) as { variables?: Record<string, unknown> } | undefined;
      const environment: Record<string, string> = {};
      for (const [name, value] of Object.entries(resolved?.variables ?? {})) {
        if (typeof value === 'string' && !Token.isUnresolved(value)) {
          environment[name] = value;
          continue;
        }
        const kind = tableOf.get(JSON.stringify(value));
        if (kind === undefined)
          throw new Error(
            `${id}: ${name} is ${JSON.stringify(value)} in the template, which the bench cannot give a local value`,
          );
        environment[name] = tableNames[kind];
      }
      return [id, { environment, memoryMiB: Number(stack.resolve(cfn.memorySize)) }];
    }),
  );
  return { stage: stack.settings.stage, functions };
}
