/**
 * The tests the context matcher's and the UserInputs reader's mutants run against: the matcher's unit tests
 * and worked examples, its exact work and tie-breaks on small inputs (test/unit/context-scan.test.ts), its
 * linear scan against the definition (a property test, here with a fixed seed so that every mutant meets the
 * same 3,000 cases), the operation counts of the hostile bodies, and the evaluation endpoint's UserInputs (its
 * 400s). test/reliability/context-terms.property.test.ts (about 30 s a run, an estimate per case) is left out
 * to keep the run short.
 */
const base = require('../jest.config');

// Read by test/support/property.ts: a mutant that survives one run survives the next.
process.env.FC_SEED ??= '20261127';

module.exports = {
  ...base,
  rootDir: '..',
  // Stops a mutant's run at its first failing test (mutation/bail-environment.js).
  testEnvironment: require('node:path').join(__dirname, 'bail-environment.js'),
  roots: ['<rootDir>/test'],
  testMatch: [
    '**/test/unit/context-terms.test.ts',
    '**/test/unit/context-scan.test.ts',
    '**/test/unit/evaluate-in-context.test.ts',
    '**/test/reliability/term-scan.property.test.ts',
    '**/test/reliability/evaluation-work.test.ts',
  ],
};
