/** The tests the strength evaluator's mutants run against: its hand-derived table and unit tests; and those of the text module. */
const base = require('../jest.config');

module.exports = {
  ...base,
  rootDir: '..',
  roots: ['<rootDir>/test'],
  testMatch: ['**/test/unit/strength-evaluator.test.ts', '**/test/unit/unicode-text.test.ts'],
};
