import { generatorPolicies, type GeneratorPolicy } from '../domain/generator-policy';
import { applySettings, type SettingField, type SettingValues } from '../domain/generator-settings';
import { checkFeasibility, generatePassword, MAX_PASSWORDS_PER_GENERATION } from '../domain/password-generator';
import { DEFAULT_POLICY_ID, MAX_POLICY_ID, validatePolicy } from '../domain/policy-collection';
import { WORD_LIST } from '../domain/word-list';
import { apiHandler, ApiError, integerParameter, noStoreJsonResponse, readQueryParameters } from '../http';
import { PolicyRepository } from '../repositories/policies';
import { GENERATION_QUERY, GENERATION_SETTINGS, type GenerationSetting } from '../routes';

/**
 * The function of GET /userapi/generatepassword/ and /api/generatepassword/: Qty passwords, as Passwordstate
 * answers them ([{"Password": "..."}]), from policy PasswordGeneratorID (the default policy when absent) with
 * any settings given replacing its fields (docs/api.md#generation-by-settings). A generated password is
 * never cached anywhere (no-store).
 */
const repository = PolicyRepository.fromEnvironment(generatorPolicies);

/** The setting that sets each policy field, to name it in an error as the request did. */
const SETTING_OF_FIELD = new Map(
  Object.entries(GENERATION_SETTINGS).map(([setting, field]) => [field as string, setting]),
);

export const handler = apiHandler(async (event) => {
  const query = readQueryParameters(event, GENERATION_QUERY, { ignoreCase: true });
  const id = integerParameter('PasswordGeneratorID', query.PasswordGeneratorID, DEFAULT_POLICY_ID, 1, MAX_POLICY_ID);
  const quantity = integerParameter('Qty', query.Qty, 1, 1, MAX_PASSWORDS_PER_GENERATION);
  const stored = (await repository.get()).policies.find((p) => p.PasswordGeneratorID === id);
  if (!stored) throw new ApiError(404, `No password generator policy has PasswordGeneratorID ${id}.`);
  const { policy, given } = oneOffPolicy(stored, query);
  const feasibility = checkFeasibility(policy, WORD_LIST);
  if (!feasibility.ok)
    throw new ApiError(
      422,
      `${given ? `The settings on policy ${id}` : `Policy ${id}`} cannot be satisfied: ${feasibility.reason}`,
    );
  const passwords = Array.from({ length: quantity }, () => ({ Password: generatePassword(policy, WORD_LIST) }));
  return noStoreJsonResponse(JSON.stringify(passwords));
});

/** The stored policy with the request's settings applied, validated as a stored policy is; a 400 naming each bad setting. */
function oneOffPolicy(
  stored: GeneratorPolicy,
  query: Partial<Record<(typeof GENERATION_QUERY)[number], string>>,
): { policy: GeneratorPolicy; given: boolean } {
  const values: SettingValues = {};
  for (const [setting, field] of Object.entries(GENERATION_SETTINGS) as [GenerationSetting, SettingField][])
    values[field] = query[setting];
  const applied = applySettings(stored, values);
  if (!applied.ok) throw settingsError(applied.problems.map((p) => `${SETTING_OF_FIELD.get(p.field)} ${p.message}`));
  if (!applied.given) return { policy: stored, given: false };
  const validated = validatePolicy(generatorPolicies, applied.policy);
  if (!validated.ok)
    throw settingsError(
      validated.problems.map((problem) =>
        problem.replace(/^(\w+):/, (_, field: string) => `${SETTING_OF_FIELD.get(field) ?? field}`),
      ),
    );
  return { policy: validated.policy, given: true };
}

function settingsError(problems: readonly string[]): ApiError {
  return new ApiError(400, `The settings do not make a valid policy: ${problems.join('; ')}.`);
}
