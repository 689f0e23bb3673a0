/** Tests are TypeScript run through ts-jest; type errors are caught once by `tsc` in `npm test`. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { diagnostics: false }] },
  setupFilesAfterEnv: ['aws-sdk-client-mock-jest'],
  testTimeout: 30000,
};
