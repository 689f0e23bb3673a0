/** The tests the strength evaluator's mutants run against: its hand-derived table and unit tests. */
const base = require('../jest.config');

module.exports = {
  ...base,
  rootDir: '..',
  roots: ['<rootDir>/test'],
  testMatch: ['**/test/unit/strength-evaluator.test.ts'],
};
