import { generatorPolicies } from '../domain/generator-policy';
import { checkFeasibility, generatePassword } from '../domain/password-generator';
import { DEFAULT_POLICY_ID } from '../domain/policy-collection';
import { WORD_LIST } from '../domain/word-list';
import { apiHandler, ApiError, integerParameter, noStoreJsonResponse, readQueryParameters } from '../http';
import { PolicyRepository } from '../repositories/policies';
import { LIMITS } from '../routes';

/**
 * The function of GET /userapi/generatepassword/?PasswordGeneratorID=N&Qty=M: M passwords from policy N, as
 * Passwordstate answers them ([{"Password": "..."}]). A generated password is never cached anywhere (no-store).
 */
const repository = PolicyRepository.fromEnvironment(generatorPolicies);

export const handler = apiHandler(async (event) => {
  const query = readQueryParameters(event, ['PasswordGeneratorID', 'Qty']);
  const id = integerParameter('PasswordGeneratorID', query.PasswordGeneratorID, DEFAULT_POLICY_ID, 1, Number.MAX_SAFE_INTEGER);
  const quantity = integerParameter('Qty', query.Qty, 1, 1, LIMITS.generatedPasswords);
  const policy = (await repository.get()).policies.find((p) => p.PasswordGeneratorID === id);
  if (!policy) throw new ApiError(404, `No password generator policy has PasswordGeneratorID ${id}.`);
  const feasibility = checkFeasibility(policy, WORD_LIST);
  if (!feasibility.ok) throw new ApiError(422, `Policy ${id} cannot be satisfied: ${feasibility.reason}`);
  const passwords = Array.from({ length: quantity }, () => ({ Password: generatePassword(policy, WORD_LIST) }));
  return noStoreJsonResponse(JSON.stringify(passwords));
});
