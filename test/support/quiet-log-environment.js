/**
 * Jest's node environment, with the functions' own log lines held back. Handlers loaded in-process log
 * through Powertools, which writes JSON lines straight to stdout and stderr: a passing run would print every expected
 * "Credentials rejected" or "Policy store unavailable". Those lines are kept per test and printed only when
 * that test (or a hook) fails. A test that spies on process.stdout.write or on the logger still sees every
 * line: its spy sits in front of this one. Plain JavaScript: jest loads an environment before any transform.
 */
const { TestEnvironment } = require('jest-environment-node');

/** A Powertools Logger line: one JSON object that starts with its level and message. */
const LOG_LINE = /^\{"level":"[A-Z]+","message":/;

class QuietLogEnvironment extends TestEnvironment {
  held = [];

  async setup() {
    await super.setup();
    // Powertools writes DEBUG and INFO to stdout, WARN and ERROR to stderr.
    const restores = ['stdout', 'stderr'].map((name) => this.hold(this.global.process[name]));
    this.restoreWrites = () => restores.forEach((restore) => restore());
  }

  /** Holds the log lines written to a stream; returns what puts its own write back. */
  hold(stream) {
    const ownWrite = Object.hasOwn(stream, 'write');
    const write = stream.write;
    this.print ??= (text) => write.call(stream, text);
    stream.write = (chunk, encoding, callback) => {
      if (typeof chunk !== 'string' || !LOG_LINE.test(chunk)) return write.call(stream, chunk, encoding, callback);
      this.held.push(chunk);
      const done = typeof encoding === 'function' ? encoding : callback;
      if (done) process.nextTick(done);
      return true;
    };
    return () => (ownWrite ? (stream.write = write) : delete stream.write);
  }

  async teardown() {
    this.restoreWrites?.();
    await super.teardown();
  }

  handleTestEvent(event) {
    if (event.name === 'test_start') this.held = [];
    else if ((event.name === 'test_done' && event.test.errors.length > 0) || event.name === 'hook_failure')
      this.replay(event);
  }

  replay(event) {
    if (this.held.length === 0) return;
    const name = event.test?.name ?? event.hook?.type ?? 'a hook';
    this.print(`Log lines of "${name}", which failed:\n${this.held.join('')}`);
    this.held = [];
  }
}

module.exports = QuietLogEnvironment;
