import type { GeneratorPolicy } from '../domain/generator-policy';
import { checkFeasibility, generatePassword } from '../domain/password-generator';
import { WORD_LIST } from '../domain/word-list';
import { ApiError } from '../http/errors';
import { readQueryParameters } from '../http/query';
import { noStoreJsonResponse } from '../http/responses';
import { answering, type CatalogSource, type ProxyHandler } from './policy-handlers';

/** At most this many passwords per request. */
export const MAX_QUANTITY = 100;
/** The policy used when the request names none: the default generator policy (spec rule 3). */
export const DEFAULT_GENERATOR_ID = 1;

/**
 * GET /userapi/generatepassword/?PasswordGeneratorID=N&Qty=M: M passwords from policy N, as Passwordstate
 * answers them ([{"Password": "..."}]). A generated password is never cached anywhere (no-store).
 */
export function generatePasswordsHandler(source: CatalogSource<GeneratorPolicy>): ProxyHandler {
  return answering(async (event) => {
    const query = readQueryParameters(event.multiValueQueryStringParameters, ['PasswordGeneratorID', 'Qty']);
    const id = integerParameter('PasswordGeneratorID', query.PasswordGeneratorID, DEFAULT_GENERATOR_ID, 1, Number.MAX_SAFE_INTEGER);
    const quantity = integerParameter('Qty', query.Qty, 1, 1, MAX_QUANTITY);
    const catalog = source.peek() ?? (await source.get());
    const policy = catalog.policies.find((p) => p.PasswordGeneratorID === id);
    if (!policy) throw new ApiError(404, `No password generator policy has PasswordGeneratorID ${id}.`);
    const feasibility = checkFeasibility(policy, WORD_LIST);
    if (!feasibility.ok) throw new ApiError(422, `Policy ${id} cannot be satisfied: ${feasibility.reason}`);
    const passwords = Array.from({ length: quantity }, () => ({ Password: generatePassword(policy, WORD_LIST) }));
    return noStoreJsonResponse(JSON.stringify(passwords));
  });
}

/** A decimal integer in [min, max], or the default when the parameter is absent. */
function integerParameter(name: string, value: string | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  const n = /^\d{1,16}$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `of at least ${min}` : `from ${min} to ${max}`;
    throw new ApiError(400, `${name} must be a whole number ${range}.`);
  }
  return n;
}
