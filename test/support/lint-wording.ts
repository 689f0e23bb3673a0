/**
 * The exact wording an operator reads for a strength policy without BannedWords, in `npm run policy -- lint` and
 * on the report's card (admin/policy-lint.ts): pinned here once, for the lint's test and the report's.
 */
export const NO_CONTEXT_WORDS = {
  message:
    "No context-specific words: the evaluation of this policy matches only the terms a request's UserInputs bring.",
  fix: "List the organization's own terms in BannedWords in the policy file: its names and products, system identifiers, project codenames, department or role names.",
} as const;
