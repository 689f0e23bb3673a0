/**
 * The online breached-password check (functions/repositories/pwned-passwords.ts) against a stub of Have I
 * Been Pwned's range API on loopback: what it answers for a hit, a miss, a padding line, and each way the API
 * can fail (it fails open, counts PwnedPasswordsUnavailable and logs the error kind), and exactly what leaves
 * the function: the 5-character prefix of the SHA-1, never the rest of the hash or the password.
 */
import {
  PWNED_PASSWORDS_API,
  pwnedPasswordsCheck,
  pwnedPasswordsSettings,
  type PwnedPasswordsSettings,
} from '../../functions/repositories/pwned-passwords';
import { DEFAULT_PWNED_PASSWORDS_TIMEOUT_MS, logger, metrics } from '../../functions/runtime';
import { PwnedPasswordsStub, sha1Hex, type StubBehaviour } from '../support/pwned-passwords-stub';

const BREACHED = 'P@ssw0rd';
const SECRET = 'Quiet-Harbor-Lantern-93!';

let stub: PwnedPasswordsStub;
/** Generous, so a cold fetch on a busy machine never reads as a timeout; the timeout cases use a short bound. */
let settings: PwnedPasswordsSettings;
let short: PwnedPasswordsSettings;
beforeAll(async () => {
  stub = await PwnedPasswordsStub.start();
  settings = { url: stub.url, timeoutMs: 3000 };
  short = { url: stub.url, timeoutMs: 300 };
});
afterAll(() => stub.close());

let warned: jest.SpyInstance;
let counted: jest.SpyInstance;
beforeEach(() => {
  stub.requests.length = 0;
  stub.behaviour = { kind: 'range' };
  warned = jest.spyOn(logger, 'warn').mockImplementation(() => undefined);
  counted = jest.spyOn(metrics, 'addMetric').mockImplementation(() => metrics);
});
afterEach(() => jest.restoreAllMocks());

/** Everything that left the function or was written about it: the request lines and headers, the log calls, the metrics. */
const everythingSaid = () => JSON.stringify([stub.requests, warned.mock.calls, counted.mock.calls]);

describe('settings (PWNED_PASSWORDS_CHECK, PWNED_PASSWORDS_URL, PWNED_PASSWORDS_TIMEOUT_MS)', () => {
  it('is off unless PWNED_PASSWORDS_CHECK is exactly true', () => {
    for (const value of [undefined, '', '1', 'TRUE', 'yes', 'false'])
      expect(pwnedPasswordsSettings({ PWNED_PASSWORDS_CHECK: value })).toBeUndefined();
  });

  it("on: Have I Been Pwned's API and a 1000 ms bound unless told otherwise", () => {
    expect(PWNED_PASSWORDS_API).toBe('https://api.pwnedpasswords.com');
    expect(DEFAULT_PWNED_PASSWORDS_TIMEOUT_MS).toBe(1000);
    expect(pwnedPasswordsSettings({ PWNED_PASSWORDS_CHECK: 'true' })).toEqual({
      url: 'https://api.pwnedpasswords.com',
      timeoutMs: 1000,
    });
    expect(
      pwnedPasswordsSettings({
        PWNED_PASSWORDS_CHECK: 'true',
        PWNED_PASSWORDS_URL: 'http://127.0.0.1:9/',
        PWNED_PASSWORDS_TIMEOUT_MS: '250',
      }),
    ).toEqual({
      url: 'http://127.0.0.1:9',
      timeoutMs: 250,
    });
    for (const bad of ['0', '-5', '1.5', 'soon'])
      expect(
        pwnedPasswordsSettings({ PWNED_PASSWORDS_CHECK: 'true', PWNED_PASSWORDS_TIMEOUT_MS: bad })?.timeoutMs,
      ).toBe(1000);
  });

  it('off: answers false and sends nothing', async () => {
    stub.add(BREACHED, 5);
    await expect(pwnedPasswordsCheck(undefined)(BREACHED)).resolves.toBe(false);
    expect(stub.requests).toEqual([]);
  });
});

describe('the range lookup', () => {
  beforeAll(() => stub.add(BREACHED, 7));

  it('a hit: the password is breached', async () => {
    await expect(pwnedPasswordsCheck(settings)(BREACHED)).resolves.toBe(true);
    expect(counted).not.toHaveBeenCalled();
    expect(warned).not.toHaveBeenCalled();
  });

  it('a miss: it is not', async () => {
    await expect(pwnedPasswordsCheck(settings)(SECRET)).resolves.toBe(false);
    expect(counted).not.toHaveBeenCalled();
  });

  it('a padding line (count 0) carrying the suffix is not a hit', async () => {
    const padded = 'Padded-Only-Entry-1';
    stub.add(padded, 0);
    await expect(pwnedPasswordsCheck(settings)(padded)).resolves.toBe(false);
    expect(counted).not.toHaveBeenCalled();
  });

  it('sends exactly GET /range/<first 5 hex of the SHA-1, upper case> with Add-Padding, and nothing more of the hash or the password', async () => {
    // The known vector: SHA-1("password") = 5BAA61E4C9B93F3F0682250B6CF8331B7EE68FD8.
    await pwnedPasswordsCheck(settings)('password');
    expect(stub.requests.map((r) => r.url)).toEqual(['/range/5BAA6']);
    for (const password of [BREACHED, SECRET, 'Ünïcødé-🔑-密码']) {
      stub.requests.length = 0;
      await pwnedPasswordsCheck(settings)(password);
      const hash = sha1Hex(password);
      expect(stub.requests).toEqual([
        {
          method: 'GET',
          url: `/range/${hash.slice(0, 5)}`,
          headers: {
            host: new URL(stub.url).host,
            connection: 'keep-alive',
            'add-padding': 'true',
            'user-agent': 'password-policy-service',
            accept: '*/*',
            'accept-language': '*',
            'sec-fetch-mode': 'cors',
            'accept-encoding': 'gzip, deflate',
          },
        },
      ]);
      const sent = JSON.stringify(stub.requests);
      expect(sent.toUpperCase()).not.toContain(hash.slice(5, 12));
      expect(sent).not.toContain(JSON.stringify(password).slice(1, -1));
    }
  });
});

describe('fails open: evaluated without it, counted, logged by error kind only', () => {
  beforeAll(() => stub.add(SECRET, 3));

  it.each<[string, StubBehaviour, string]>([
    ['no answer within the bound', { kind: 'hang' }, 'TimeoutError'],
    ['an answer that stalls mid-body', { kind: 'stall-body' }, 'TimeoutError'],
    ['a 503', { kind: 'status', status: 503 }, 'PwnedPasswordsAnswerError'],
    ['a 500', { kind: 'status', status: 500 }, 'PwnedPasswordsAnswerError'],
    ['a 429 (rate limited)', { kind: 'status', status: 429 }, 'PwnedPasswordsAnswerError'],
    ['a redirect', { kind: 'status', status: 302 }, 'TypeError'],
    [
      'a body that is not a range',
      { kind: 'body', body: '<html>Just a moment...</html>' },
      'PwnedPasswordsAnswerError',
    ],
    [
      'a range with one bad line',
      { kind: 'body', body: `${sha1Hex(SECRET).slice(5)}:3\r\nnot-a-line` },
      'PwnedPasswordsAnswerError',
    ],
    [
      'a count that is not a number',
      { kind: 'body', body: `${sha1Hex(SECRET).slice(5)}:many` },
      'PwnedPasswordsAnswerError',
    ],
    ['an empty 200', { kind: 'body', body: '' }, 'PwnedPasswordsAnswerError'],
  ])('%s', async (_what, behaviour, errorKind) => {
    stub.behaviour = behaviour;
    const bound = errorKind === 'TimeoutError' ? short : settings;
    const started = Date.now();
    // The stub holds SECRET as breached: only an answer it could read would say so.
    await expect(pwnedPasswordsCheck(bound)(SECRET)).resolves.toBe(false);
    expect(Date.now() - started).toBeLessThan(bound.timeoutMs + 1000);
    expect(counted.mock.calls).toEqual([['PwnedPasswordsUnavailable', 'Count', 1]]);
    expect(warned.mock.calls).toEqual([['Pwned Passwords lookup failed; evaluated without it', { error: errorKind }]]);
    const said = everythingSaid().toUpperCase();
    expect(said).not.toContain(sha1Hex(SECRET).slice(5, 12));
    expect(said).not.toContain(SECRET.toUpperCase());
  });

  it('a connection refused', async () => {
    const closed = await PwnedPasswordsStub.start();
    await closed.close();
    await expect(pwnedPasswordsCheck({ url: closed.url, timeoutMs: 3000 })(SECRET)).resolves.toBe(false);
    expect(counted.mock.calls).toEqual([['PwnedPasswordsUnavailable', 'Count', 1]]);
    expect(warned.mock.calls).toEqual([
      ['Pwned Passwords lookup failed; evaluated without it', { error: 'TypeError' }],
    ]);
  });
});
