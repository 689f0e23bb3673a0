import { startLocalService } from '../local/start';

/**
 * The local gateway for the HTTP measurement, in a process of its own (so it does not share an event loop
 * with the load generator): startLocalService with the environment it is given, its URL printed as one
 * JSON line. It stops when told (SIGTERM) or when its parent goes away (stdin closes).
 */
startLocalService({ ...process.env, PORT: '0', DYNAMODB_PORT: '0', HOST: '127.0.0.1', QUIET: '1' }, () => {}).then(
  (service) => {
    let stopping = false;
    const stop = () => {
      if (stopping) return;
      stopping = true;
      service.stop().finally(() => process.exit(0));
    };
    process.on('SIGTERM', stop);
    process.stdin.on('end', stop).on('error', stop).resume();
    process.stdout.write(`${JSON.stringify({ url: service.url })}\n`);
  },
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
