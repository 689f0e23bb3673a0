import * as path from 'node:path';

/**
 * The committed seed files, resolved from this module so every tool finds them from any working directory:
 * the seed loader and the local run load them, the stack deploys their policy 1 of each collection, the
 * API description takes its examples from them, and the policy CLI explains the generator policies.
 */
const SEED_DIR = path.join(__dirname, '..', 'seed');

export const SEED_FILES = {
  generator: path.join(SEED_DIR, 'generator-policies.json'),
  strength: path.join(SEED_DIR, 'strength-policies.json'),
  /** The demo credentials of the local run, never deployed. */
  credentials: path.join(SEED_DIR, 'local-credentials.json'),
} as const;
