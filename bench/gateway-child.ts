import { startLocalService } from '../local/start';
import { LOCAL_ENV } from '../local/local-environment';

/**
 * The local gateway for the HTTP measurement, in a process of its own (so it does not share an event loop
 * with the load generator): startLocalService with the environment it is given, its URL printed as one
 * JSON line. It stops when told (SIGTERM) or when its parent goes away (stdin closes).
 */
startLocalService(
  {
    ...process.env,
    [LOCAL_ENV.port]: '0',
    [LOCAL_ENV.dynamodbPort]: '0',
    [LOCAL_ENV.host]: '127.0.0.1',
    [LOCAL_ENV.quiet]: '1',
  },
  () => {},
).then(
  (service) => {
    let stopping = false;
    const stop = () => {
      if (stopping) return;
      stopping = true;
      // Exits whether stopping succeeds or not: the parent waits for this process, not for a clean stop.
      void service.stop().finally(() => process.exit(0));
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
