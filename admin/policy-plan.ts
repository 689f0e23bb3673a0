import { shownJson } from '../functions/domain/unicode-text';
import {
  changeRuleProblem,
  fieldDiff,
  kindOf,
  titleOf,
  type CollectionName,
  type Policy,
  type PolicyChange,
  type StoredPolicy,
} from '../store/policy-store';

/**
 * What `apply` would do: the difference between a directory of policy files (the desired collection) and
 * the store, checked against the versions the directory's export rests on. Pure: no I/O.
 */

export interface Plan {
  readonly changes: PolicyChange[];
  readonly unchanged: number;
  /** Why apply must refuse: conflicts with changes made since the export, and broken rules (policy 1). */
  readonly refusals: string[];
}

/**
 * `desired`: the directory's policies; `base`: the version of each policy the export saw; `stored`: the store now.
 * A policy the store changed, created or deleted since the export is a conflict, whatever the directory says.
 */
export function makePlan(
  collection: CollectionName,
  desired: ReadonlyMap<number, Policy>,
  base: ReadonlyMap<number, number>,
  stored: ReadonlyMap<number, StoredPolicy>,
): Plan {
  const changes: PolicyChange[] = [];
  const refusals: string[] = [];
  let unchanged = 0;
  const ids = [...new Set([...desired.keys(), ...base.keys(), ...stored.keys()])].sort((a, b) => a - b);
  for (const id of ids) {
    const title = titleOf(collection, id);
    const want = desired.get(id);
    const now = stored.get(id);
    const seen = base.get(id);
    if (now !== undefined && seen === undefined) {
      refusals.push(`${title}: created in the store after the export (version ${now.version}); export again.`);
    } else if (now !== undefined && seen !== now.version) {
      refusals.push(
        `${title}: changed in the store after the export (version ${seen} then, ${now.version} now); export again.`,
      );
    } else if (now === undefined && seen !== undefined && want !== undefined) {
      refusals.push(`${title}: deleted from the store after the export (version ${seen} then); export again.`);
    } else if (want !== undefined && now !== undefined && sameFields(want, now.policy)) {
      unchanged += 1;
    } else if (want !== undefined || now !== undefined) {
      const change: PolicyChange = { collection, id, before: now, after: want };
      const rule = changeRuleProblem(change);
      if (rule !== undefined) refusals.push(rule);
      else changes.push(change);
    }
  }
  return { changes, unchanged, refusals };
}

const SIGNS = { create: '+', update: '~', delete: '-', rollback: '~' } as const;

/** One change as the operator reads it: a heading line and its field-level diff, indented; every text escaped (shownJson, fieldDiff). */
export function formatChange(change: PolicyChange, nameField: string): string {
  const kind = kindOf(change);
  const name = (change.after ?? change.before?.policy)?.[nameField];
  const version =
    change.before !== undefined
      ? ` (version ${change.before.version}${change.after !== undefined ? ` → ${change.before.version + 1}` : ''})`
      : '';
  const verb = kind === 'create' ? 'create' : kind === 'delete' ? 'delete' : 'change';
  const restoring = change.restoredVersion !== undefined ? `, restoring version ${change.restoredVersion}` : '';
  const heading = `${SIGNS[kind]} ${verb} ${titleOf(change.collection, change.id)} ${shownJson(name)}${version}${restoring}`;
  const lines = change.after === undefined ? [] : fieldDiff(change.before?.policy, change.after);
  return [heading, ...lines.map((line) => `    ${line}`)].join('\n');
}

/** The plan in full, ending with its summary line. */
export function formatPlan(plan: Plan, nameField: string): string {
  const lines = plan.changes.map((change) => formatChange(change, nameField));
  for (const refusal of plan.refusals) lines.push(`! ${refusal}`);
  lines.push(summaryLine(plan));
  return `${lines.join('\n')}\n`;
}

function summaryLine(plan: Plan): string {
  const count = (kind: 'create' | 'update' | 'delete') => plan.changes.filter((c) => kindOf(c) === kind).length;
  const summary = `Plan: ${count('create')} to create, ${count('update')} to change, ${count('delete')} to delete, ${plan.unchanged} unchanged.`;
  return plan.refusals.length > 0
    ? `${summary} Apply would refuse: ${plan.refusals.length} problem(s) above.`
    : summary;
}

function sameFields(a: Policy, b: Policy): boolean {
  return fieldDiff(a, b).length === 0;
}
