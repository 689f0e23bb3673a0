import { CONTROL_CHARACTER, MATCHED_LENGTH_COUNTED, matchedLength, UNPAIRED_SURROGATE } from '../../unicode-text';

/**
 * UserInputs, the evaluation request's optional words about the password's owner and organization (user name,
 * display name, email address, employee number, company, service): their bounds and why a value is refused.
 * context-terms.ts derives the tokens matched from them. They are a secret as the password is: no phrase
 * here quotes a value, only the position of the one refused.
 */
/** maxLength counts characters as matchedLength does: code points as sent and after NFKC, whichever is more. */
export const USER_INPUTS = { field: 'UserInputs', maxItems: 20, maxLength: 256 } as const;

const { field, maxItems, maxLength } = USER_INPUTS;
const SHAPE = `${field} must be a JSON array of 1 to ${maxItems} strings (the user name, display name, email address and the like)`;

/** Why a value is not valid UserInputs (a phrase that quotes nothing of it), or undefined when it is. */
export function userInputsProblem(value: unknown): string | undefined {
  if (!Array.isArray(value)) return `${SHAPE}; leave it out when there are none.`;
  if (value.length === 0) return `${SHAPE}; leave it out when there are none.`;
  if (value.length > maxItems) return `${field} must hold at most ${maxItems} strings; this one holds ${value.length}.`;
  for (const [i, item] of value.entries()) {
    const name = `${field}[${i}]`;
    if (typeof item !== 'string') return `${name} must be a JSON string.`;
    if (item === '') return `${name} must not be empty.`;
    if (UNPAIRED_SURROGATE.test(item))
      return `${name} must be valid Unicode text (it has an unpaired surrogate escape).`;
    if (matchedLength(item) > maxLength)
      return `${name} must be at most ${maxLength} characters, ${MATCHED_LENGTH_COUNTED}.`;
    if (CONTROL_CHARACTER.test(item)) return `${name} must not contain control characters.`;
  }
  return undefined;
}
