/**
 * `npm start` on a port another process holds, the gateway's or the store's: it says which setting picks
 * another port and how, and exits non-zero, without a stack trace (Node's own error names only EADDRINUSE).
 *
 * Run: npx jest test/reliability/busy-port
 */
import * as net from 'node:net';
import { storePort } from '../../local/start';
import { spawnLocalService } from '../support/local-service';
import { LOCAL_ENV } from '../../local/local-environment';

let holder: net.Server;
let port: number;
beforeAll(async () => {
  holder = net.createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', () => resolve()));
  port = (holder.address() as net.AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => holder.close(() => resolve()));
});

/** Whose port is taken, the variable that picks it, and the line npm start must print for that port. */
const TAKEN: [string, string, (port: number) => string][] = [
  [
    'names PORT and an example command, exits with a code other than 0, and prints no stack trace',
    LOCAL_ENV.port,
    (port) =>
      `Could not start: port ${port} on 127.0.0.1 is already in use; pick another with ${LOCAL_ENV.port}, for example: ${LOCAL_ENV.port}=${port + 1} npm start`,
  ],
  [
    'the store: names DYNAMODB_PORT and an example command, and exits with a code other than 0',
    LOCAL_ENV.dynamodbPort,
    (port) =>
      `Could not start: the store's port ${port} on 127.0.0.1 is already in use (DynamoDB Local, or another npm start?); pick another with ${LOCAL_ENV.dynamodbPort}, for example: ${LOCAL_ENV.dynamodbPort}=${port + 1} npm start`,
  ],
];

it.each(TAKEN)(
  '%s',
  async (_title, variable, says) => {
    const failure: Error = await spawnLocalService({ env: { [variable]: String(port) } }).then(
      () => new Error(`the start script started with ${variable}=${port}, a port that is taken`),
      (error: Error) => error,
    );
    const [summary, output] = failure.message.split('\n--- output of local/start.ts ---\n');
    expect(summary).toMatch(/exited before it was ready \(code [1-9]\d*, signal null\)$/);
    expect(output).toContain(says(port));
    expect(output).not.toMatch(/^\s+at /m);
  },
  90_000,
);

it("the store's port is DynamoDB Local's 8000 unless DYNAMODB_PORT says otherwise (0: a free one)", () => {
  expect([
    storePort({}),
    storePort({ [LOCAL_ENV.dynamodbPort]: '' }),
    storePort({ [LOCAL_ENV.dynamodbPort]: '0' }),
    storePort({ [LOCAL_ENV.dynamodbPort]: '8123' }),
  ]).toEqual([8000, 8000, 0, 8123]);
});
