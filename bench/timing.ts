import { GetCommand } from '@aws-sdk/lib-dynamodb';
import * as http from 'node:http';
import { issueKey } from '../functions/domain/api-key';
import { userCredentialId } from '../functions/repositories/credentials';
import { createDocumentClient, ENV } from '../functions/runtime';
import { readLocalCredentials } from '../local/demo-credentials';
import { CREDENTIALS_FILE, startLocalService, TABLE_NAMES } from '../local/start';
import { median, percentile, table } from './stats';
import { LOCAL_ENV } from '../local/local-environment';
import { BENCH_ENV } from './bench-variables';

/**
 * `npm run bench:timing`: does the answer time tell a known UserID from an unknown one? Over real HTTP on
 * loopback, through `npm start`'s gateway with the authorizer cache off, it sends interleaved pairs (in a
 * random order within each pair) of:
 *   known:   the demo administrator's UserID with a wrong key,
 *   unknown: a UserID that does not exist, with a wrong key of the same form.
 * Both answer 401. It prints both medians, the difference of the medians and its 95% bootstrap confidence
 * interval (docs/testing.md#reliability). A difference whose interval holds 0 is not measurable here. Then the
 * same for the one thing the two requests do differently, the authorizer's GetItem of an item that exists
 * and of one that does not, straight against the store.
 *
 *   TIMING_PAIRS   request pairs (default 2000, at least 200)
 */

const PAIRS = Math.max(200, Number(process.env[BENCH_ENV.timingPairs] ?? 2000));
const WARMUP = 200;
const BOOTSTRAP = 2000;

async function main(): Promise<void> {
  const service = await startLocalService(
    { ...process.env, [LOCAL_ENV.port]: '0', [LOCAL_ENV.quiet]: '1', [LOCAL_ENV.authorizerCacheTtl]: '0' },
    () => undefined,
  );
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const admin = (await readLocalCredentials(CREDENTIALS_FILE)).generatorAdmin;
    const url = new URL('/userapi/passwordgenerator', service.url);
    const send = (userId: string) =>
      new Promise<number>((resolve, reject) => {
        const started = process.hrtime.bigint();
        // A fresh wrong key per request: a key id that is none of the user's, as a guesser would send.
        const req = http.request(url, { agent, headers: { UserID: userId, APIKey: issueKey('user').key } }, (res) => {
          res.resume();
          res.on('end', () =>
            res.statusCode === 401
              ? resolve(Number(process.hrtime.bigint() - started) / 1000)
              : reject(new Error(`expected 401, got ${res.statusCode}`)),
          );
        });
        req.on('error', reject);
        req.end();
      });
    const unknownUser = () => `nobody-${Math.random().toString(36).slice(2, 10)}`;
    for (let i = 0; i < WARMUP; i += 1) await send(i % 2 === 0 ? admin.UserID : unknownUser());

    const overHttp = await pairs(
      () => send(admin.UserID),
      () => send(unknownUser()),
    );

    const documents = createDocumentClient({ [ENV.dynamodbEndpoint]: service.dynamodbEndpoint });
    const get = async (userId: string) => {
      const started = process.hrtime.bigint();
      await documents.send(
        new GetCommand({ TableName: TABLE_NAMES.credentials, Key: { CredentialID: userCredentialId(userId) } }),
      );
      return Number(process.hrtime.bigint() - started) / 1000;
    };
    const reads = await pairs(
      () => get(admin.UserID),
      () => get(unknownUser()),
    );

    const rows = [
      ['HTTP 401: known UserID, wrong key', overHttp.known],
      ['HTTP 401: unknown UserID', overHttp.unknown],
      ['GetItem: the user item, found', reads.known],
      ['GetItem: no such item', reads.unknown],
    ] as const;
    console.log(
      table(
        ['Measured', 'Pairs', 'Median', 'p90'],
        rows.map(([name, xs]) => [
          name,
          String(PAIRS),
          `${median(xs).toFixed(1)} µs`,
          `${percentile(xs, 90).toFixed(1)} µs`,
        ]),
      ),
    );
    console.log('');
    for (const [name, result] of [
      ['HTTP 401', overHttp],
      ['GetItem alone', reads],
    ] as const) {
      const [low, high] = bootstrapInterval(result.known, result.unknown);
      const verdict = low <= 0 && high >= 0 ? 'holds 0: not measurable' : 'excludes 0: measurable';
      console.log(
        `${name}: known - unknown = ${(median(result.known) - median(result.unknown)).toFixed(1)} µs, 95% CI [${low.toFixed(1)}, ${high.toFixed(1)}] µs (${verdict})`,
      );
    }
  } finally {
    agent.destroy();
    await service.stop();
  }
}

/** PAIRS interleaved pairs, in a random order within each pair. */
async function pairs(
  known: () => Promise<number>,
  unknown: () => Promise<number>,
): Promise<{ known: number[]; unknown: number[] }> {
  const result = { known: [] as number[], unknown: [] as number[] };
  for (let i = 0; i < PAIRS; i += 1) {
    if (Math.random() < 0.5) {
      result.known.push(await known());
      result.unknown.push(await unknown());
    } else {
      result.unknown.push(await unknown());
      result.known.push(await known());
    }
  }
  return result;
}

/** The 95% percentile-bootstrap interval of median(a) - median(b), resampling each side. */
function bootstrapInterval(a: readonly number[], b: readonly number[]): [number, number] {
  const resample = (xs: readonly number[]) =>
    Array.from({ length: xs.length }, () => xs[Math.floor(Math.random() * xs.length)]!);
  const differences = Array.from({ length: BOOTSTRAP }, () => median(resample(a)) - median(resample(b))).sort(
    (x, y) => x - y,
  );
  return [differences[Math.floor(0.025 * BOOTSTRAP)]!, differences[Math.floor(0.975 * BOOTSTRAP)]!];
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
