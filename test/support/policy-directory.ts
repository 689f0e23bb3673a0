import * as path from 'node:path';
import { writeExport } from '../../admin/policy-files';
import type { StrengthPolicy } from '../../functions/domain/strength-policy';
import { strengthPolicy } from '../../testkit/policy-fixtures';

/**
 * A strength-policy directory as an export leaves it (its versions.json included), holding policy 2 at version 1:
 * the policy, and the path of its file, for a test to write over with the text it means the policy CLI to read.
 */
export async function exportedStrengthPolicy(dir: string): Promise<{ policy: StrengthPolicy; file: string }> {
  const policy = strengthPolicy({ PasswordStrengthPolicyID: 2 });
  await writeExport(dir, 'strength', new Map([[2, { policy, version: 1 }]]));
  return { policy, file: path.join(dir, '2.json') };
}
