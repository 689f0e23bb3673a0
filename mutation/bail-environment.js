/**
 * The test environment of npm run mutation's third part (mutation/jest.context.config.js): the project's own
 * (test/support/quiet-log-environment.js), and a mutant's run that stops at its first failing test. StrykerJS
 * needs one failing test to call a mutant killed and means to stop there (its disableBail option is off), but
 * its jest runner cannot pass jest's bail (jestjs/jest#11766) and runs every test that covers the mutant. Here,
 * once a test fails while a mutant is active, the tests left in that run are skipped, with their beforeAll
 * hooks: a killed mutant costs its first failure, not the whole suite. A surviving mutant runs every test.
 * Plain JavaScript: jest loads an environment before any transform.
 */
const QuietLogEnvironment = require('../test/support/quiet-log-environment.js');

/** Where StrykerJS names the mutant a run is for (@stryker-mutator/api, INSTRUMENTER_CONSTANTS). */
const ACTIVE_MUTANT = '__STRYKER_ACTIVE_MUTANT__';

/** The mutant whose run has had a failing test. Jest requires an environment once per process, so every test file of the run sees it. */
let failedUnder;

/** Marks every test in a describe block skipped: jest-circus then runs none of its hooks either. */
function skipAll(block) {
  for (const child of block.children) {
    if (child.type === 'describeBlock') skipAll(child);
    else child.mode = 'skip';
  }
}

class BailEnvironment extends QuietLogEnvironment {
  handleTestEvent(event, state) {
    super.handleTestEvent(event, state);
    const mutant = process.env[ACTIVE_MUTANT];
    if (mutant === undefined) return;
    if ((event.name === 'test_done' && event.test.errors.length > 0) || event.name === 'hook_failure')
      failedUnder = mutant;
    else if (failedUnder === mutant && event.name === 'run_describe_start') skipAll(event.describeBlock);
    else if (failedUnder === mutant && event.name === 'test_start') event.test.mode = 'skip';
  }
}

module.exports = BailEnvironment;
