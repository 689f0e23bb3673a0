/**
 * The tests the security modules' mutants run against: the in-process tests of the authorizer and of the
 * query, header and body readers. The evaluation endpoint's tests (which build zxcvbn-ts's estimator per
 * load) are left out to keep the run short; test/unit/http.test.ts covers the body reader on its own.
 */
const base = require('../jest.config');

module.exports = {
  ...base,
  rootDir: '..',
  roots: ['<rootDir>/test'],
  testMatch: [
    '**/test/unit/authorizer.test.ts',
    '**/test/unit/http.test.ts',
    // The body's name scanner, which names the repeated member and where for the policy files.
    '**/test/unit/json-text.test.ts',
    '**/test/unit/policy-handlers.test.ts',
    '**/test/unit/generate-password-handler.test.ts',
    '**/test/unit/authorizer-emulation.test.ts',
    // holdsKey (api-key.ts) keeps keys out of the local request line.
    '**/test/unit/request-log.test.ts',
  ],
};
