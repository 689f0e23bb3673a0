import { createHash } from 'node:crypto';
import {
  countMetric,
  DEFAULT_PWNED_PASSWORDS_TIMEOUT_MS,
  ENV,
  errorName,
  logger,
  SERVICE_METRICS,
  wholeNumber,
} from '../runtime';

/**
 * The evaluation's optional online breached-password check: Have I Been Pwned's Pwned Passwords range API,
 * by k-anonymity (docs/evaluation.md#the-online-breached-password-check). Only the first 5 hex characters
 * of the password's SHA-1 leave the function, in `GET <url>/range/<prefix>`; the API answers every hash
 * suffix it holds under that prefix (`SUFFIX:COUNT` lines, hundreds of them), and the match is made here.
 * `Add-Padding: true` asks it to pad the answer with random suffixes of count 0, so not even the answer's
 * size tells an observer of the TLS stream which prefix was asked for.
 *
 * It fails open: a lookup that times out, fails or gets an answer it cannot read counts as "not found",
 * is logged at WARN (the error kind only) and counted in PwnedPasswordsUnavailable; the evaluation goes on
 * without it (docs/decisions.md#password-evaluation says why). No log line, error or metric holds the
 * password, its hash or even the prefix.
 *
 * Node's own fetch: neither @zxcvbn-ts/matcher-pwned nor the `hibp` package fits (docs/evaluation.md).
 */

/** Have I Been Pwned's Pwned Passwords API; PWNED_PASSWORDS_URL replaces it (a stub on loopback in tests). */
export const PWNED_PASSWORDS_API = 'https://api.pwnedpasswords.com';
/** HIBP asks API clients to name themselves: the service's name, as Powertools gives it. */
export const PWNED_PASSWORDS_USER_AGENT = SERVICE_METRICS.serviceName;

/** Whether a password is in the breached-password corpus; false when unknown (the check off, or failing open). */
export type BreachCheck = (password: string) => Promise<boolean>;

export interface PwnedPasswordsSettings {
  /** The API's base URL, without a trailing slash. */
  readonly url: string;
  readonly timeoutMs: number;
}

/** The check's settings from the environment, or undefined when it is off (PWNED_PASSWORDS_CHECK is not `true`). */
export function pwnedPasswordsSettings(env: NodeJS.ProcessEnv = process.env): PwnedPasswordsSettings | undefined {
  if (env[ENV.pwnedPasswordsCheck] !== 'true') return undefined;
  return {
    url: (env[ENV.pwnedPasswordsUrl] || PWNED_PASSWORDS_API).replace(/\/+$/, ''),
    timeoutMs:
      wholeNumber(env[ENV.pwnedPasswordsTimeout], DEFAULT_PWNED_PASSWORDS_TIMEOUT_MS) ||
      DEFAULT_PWNED_PASSWORDS_TIMEOUT_MS,
  };
}

/** The online check with these settings; with none (off) it answers false at once and sends nothing. */
export function pwnedPasswordsCheck(settings: PwnedPasswordsSettings | undefined): BreachCheck {
  if (!settings) return async () => false;
  return async (password) => {
    const hash = createHash('sha1').update(password, 'utf8').digest('hex').toUpperCase();
    try {
      return (await rangeCount(settings, hash.slice(0, 5), hash.slice(5))) > 0;
    } catch (error) {
      logger.warn('Pwned Passwords lookup failed; evaluated without it', { error: errorName(error) });
      countMetric(SERVICE_METRICS.names.pwnedPasswordsUnavailable);
      return false;
    }
  };
}

/** An answer that is not a range: its name is all that is logged. */
class PwnedPasswordsAnswerError extends Error {
  constructor(what: string) {
    super(`The Pwned Passwords API answered ${what}`);
    this.name = 'PwnedPasswordsAnswerError';
  }
}

/** One line of a range: a 35-hex-digit suffix and its count (0 for a padding line). */
const RANGE_LINE = /^([0-9A-F]{35}):(\d{1,10})$/;

/** The count of `suffix` in the range of `prefix` (0 when absent); throws on a timeout, a network error or an answer that is not a range. */
async function rangeCount(settings: PwnedPasswordsSettings, prefix: string, suffix: string): Promise<number> {
  // The signal bounds the body too: an answer that stalls mid-body fails with TimeoutError like one that never starts.
  const response = await fetch(`${settings.url}/range/${prefix}`, {
    headers: { 'Add-Padding': 'true', 'User-Agent': PWNED_PASSWORDS_USER_AGENT },
    signal: AbortSignal.timeout(settings.timeoutMs),
    // The range API never redirects; a redirect is a misconfigured URL, not something to follow.
    redirect: 'error',
  });
  if (response.status !== 200) {
    await response.body?.cancel();
    throw new PwnedPasswordsAnswerError(`HTTP ${response.status}`);
  }
  const lines = (await response.text()).split(/\r?\n/).filter((line) => line !== '');
  // Every prefix has hundreds of entries (and padding adds more): an empty 200 is a proxy's answer, not HIBP's.
  if (lines.length === 0) throw new PwnedPasswordsAnswerError('an empty range');
  let count = 0;
  for (const line of lines) {
    const match = RANGE_LINE.exec(line.toUpperCase());
    if (!match) throw new PwnedPasswordsAnswerError('a line that is not SUFFIX:COUNT');
    if (match[1] === suffix) count = Number(match[2]);
  }
  return count;
}
