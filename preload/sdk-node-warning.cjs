/**
 * Preloaded (`tsx --require`) by the npm scripts that run the AWS SDK here (start, credentials, policy, seed,
 * bench, soak, bench:timing), and by jest.config.js: none of them owns it, so it lives in a folder of its own.
 *
 * On Node.js < 22 the AWS SDK prints an eight-line NodeVersionSupportWarning once per copy of the SDK, and
 * the local gateway loads five (each function bundle carries its own): the local run and the CLIs work
 * on Node.js 20, so the SDK's own switch turns the warning off. Only locally: the deployed functions run
 * on Node.js 22 and their environment never sets it (test/infrastructure/functions.test.ts pins it).
 * A value already set (say `false`, to see the warning) is kept.
 */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
