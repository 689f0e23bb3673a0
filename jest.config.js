/** Tests are TypeScript run through ts-jest; type errors are caught once by `tsc` in `npm test`. */
// Before any worker starts, so every test file, and every process a test spawns, inherits it.
require('./preload/sdk-node-warning.cjs');

module.exports = {
  // The node environment, printing the functions' log lines only for a test that fails.
  // An absolute path: StrykerJS's jest runner (npm run mutation) resolves it without jest's <rootDir>.
  testEnvironment: require('node:path').join(__dirname, 'test', 'support', 'quiet-log-environment.js'),
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { diagnostics: false }] },
  setupFilesAfterEnv: ['aws-sdk-client-mock-jest'],
  // Two files at a time on a 2-core machine (jest's default there is one, in band, the second core idle but for
  // a test's child processes). Files share nothing: every service, store and stub listens on a free port, and
  // every file written goes to a temporary folder of its own.
  maxWorkers: Math.max(2, require('node:os').availableParallelism() - 1),
  // FC_RUNS_FACTOR (test/support/property.ts) runs every property that many times deeper: its tests get as much longer.
  testTimeout: 30000 * Math.max(1, Number(process.env.FC_RUNS_FACTOR) || 1),
};
