/** The tests the password generator's mutants run against: its rules, feasibility table and statistics. */
const base = require('../jest.config');

module.exports = {
  ...base,
  rootDir: '..',
  roots: ['<rootDir>/test'],
  testMatch: ['**/test/unit/password-generator.test.ts'],
};
