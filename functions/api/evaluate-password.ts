import { evaluatePassword } from '../domain/evaluation';
import { BREACHED_PASSWORDS, guessEstimator } from '../domain/evaluation/estimator';
import { strengthPolicies } from '../domain/strength-policy';
import { apiHandler, ApiError, noStoreJsonResponse } from '../http';
import { PolicyRepository } from '../repositories/policies';
import { pwnedPasswordsCheck, pwnedPasswordsSettings } from '../repositories/pwned-passwords';
import { answerLanguage, languageHeaders } from './answer-language';
import { readEvaluationRequest } from './evaluation-request';

/**
 * The function of POST /api/passwordstrength/evaluate with {"PasswordStrengthPolicyID": N, "Password": "...",
 * "UserInputs": [...]}: the evaluation of the password against strength policy N, in the context of the
 * UserInputs and the policy's BannedWords. The password and the UserInputs are never logged (the logger
 * redacts bodies), echoed in an error, or kept: the answer is no-store, and no phrase quotes the body. Its Messages
 * and Suggestions are in the language Accept-Language picks (answer-language.ts), which changes nothing else.
 */
const repository = PolicyRepository.fromEnvironment(strengthPolicies);
// Setting up the estimator's dictionaries and models takes a moment: here it falls in Lambda's init phase, not a request.
const estimate = guessEstimator();
// Have I Been Pwned's range API when PWNED_PASSWORDS_CHECK=true; otherwise always false, and nothing is sent.
const online = pwnedPasswordsCheck(pwnedPasswordsSettings());

export const handler = apiHandler(async (event) => {
  const request = readEvaluationRequest(event);
  const policy = (await repository.get()).policies.find((p) => p.PasswordStrengthPolicyID === request.policyId);
  if (!policy) throw new ApiError(404, `No password strength policy has PasswordStrengthPolicyID ${request.policyId}.`);
  // The offline blocklist first; the online check (it never throws, it fails open) only when that misses, so a
  // password already known to be breached never leaves the function even as a hash prefix.
  const breached = BREACHED_PASSWORDS.has(request.password) || (await online(request.password));
  const language = answerLanguage(event);
  return noStoreJsonResponse(
    JSON.stringify(evaluatePassword(policy, request.password, estimate, breached, request.userInputs, language)),
    languageHeaders(language),
  );
});
