/**
 * The hostile evaluation bodies of the bench's `hostile` section (bench/hostile-bodies.ts): replayed from their
 * seed, every family present in the counts asked, every body valid under today's limits as sent, the variants
 * meant to stay valid after NFKC valid after it (read by the function's own request reading and the policy
 * schema, which both accept them today and once the limits are counted after NFKC), and the others not.
 *
 * Run: npx jest test/unit/hostile-bodies
 */
import { readEvaluationRequest } from '../../functions/api/evaluation-request';
import { validatePolicy } from '../../functions/domain/policy-collection';
import { strengthPolicies } from '../../functions/domain/strength-policy';
import { HOSTILE_FAMILIES, hostileBodies, type HostileBody } from '../../bench/hostile-bodies';
import { proxyEvent } from '../support/entry-points';
import { strengthPolicy } from '../../testkit/policy-fixtures';

/** Today's limits, counted in code points as sent (functions/api/evaluation-request.ts, user-inputs.ts, strength-policy.ts). */
const LIMITS = { password: 256, userInputs: 20, userInput: 256, bannedWords: 1000, bannedWord: [3, 64] } as const;
const CONTROL = /\p{Cc}/u;
const SURROGATE = /\p{Cs}/u;

const length = (text: string) => [...text].length;
const nfkc = (text: string) => text.normalize('NFKC');
const fold = (text: string) => nfkc(text).toLowerCase();

/** The problems of a body under today's limits, its values counted as `count` reads them. */
function problems(body: HostileBody, count: (text: string) => number): string[] {
  const found: string[] = [];
  const text = (name: string, value: string, max: number, min = 1) => {
    if (count(value) < min || count(value) > max) found.push(`${name} has ${count(value)} characters`);
    if (CONTROL.test(value) || SURROGATE.test(value)) found.push(`${name} has a control character or a lone surrogate`);
  };
  text('Password', body.password, LIMITS.password);
  if (body.userInputs.length > LIMITS.userInputs) found.push(`${body.userInputs.length} UserInputs`);
  body.userInputs.forEach((input, i) => text(`UserInputs[${i}]`, input, LIMITS.userInput));
  if (body.bannedWords.length > LIMITS.bannedWords) found.push(`${body.bannedWords.length} BannedWords`);
  body.bannedWords.forEach((word, i) => text(`BannedWords[${i}]`, word, LIMITS.bannedWord[1], LIMITS.bannedWord[0]));
  if (new Set(body.bannedWords.map(fold)).size !== body.bannedWords.length)
    found.push('BannedWords repeat a word ignoring case');
  return found;
}

/** Whether the function's own request reading and the policy schema accept the body. */
function accepted(body: Pick<HostileBody, 'password' | 'userInputs' | 'bannedWords'>): boolean {
  const request = {
    PasswordStrengthPolicyID: 2,
    Password: body.password,
    ...(body.userInputs.length > 0 ? { UserInputs: body.userInputs } : {}),
  };
  const event = proxyEvent('POST', '/api/passwordstrength/evaluate', {
    headers: { 'Content-Type': ['application/json'] },
    body: JSON.stringify(request),
  });
  expect(readEvaluationRequest(event)).toEqual({ policyId: 2, password: body.password, userInputs: body.userInputs });
  const policy = validatePolicy(
    strengthPolicies,
    strengthPolicy({ PasswordStrengthPolicyID: 2, BannedWords: body.bannedWords }),
  );
  if (!policy.ok) throw new Error(policy.problems.join('\n'));
  return true;
}

const afterNfkc = (body: HostileBody) => ({
  password: nfkc(body.password),
  userInputs: body.userInputs.map(nfkc),
  bannedWords: body.bannedWords.map(nfkc),
});

describe('hostileBodies', () => {
  const bodies = hostileBodies(2026, 6);

  it('replays from its seed: the same seed, the same bodies; another seed, others', () => {
    expect(hostileBodies(2026, 6)).toEqual(bodies);
    expect(hostileBodies(7, 6)).not.toEqual(bodies);
  });

  it("a family's body i is the same whatever perFamily is", () => {
    const three = hostileBodies(2026, 3);
    for (const family of HOSTILE_FAMILIES)
      expect(three.filter((b) => b.family === family)).toEqual(bodies.filter((b) => b.family === family).slice(0, 3));
  });

  it.each([1, 2, 5, 6])(
    '%i per family: every family, in order, that many each, the even ones valid after NFKC, names unique',
    (perFamily) => {
      const made = hostileBodies(11, perFamily);
      expect(made).toHaveLength(HOSTILE_FAMILIES.length * perFamily);
      expect([...new Set(made.map((b) => b.family))]).toEqual([...HOSTILE_FAMILIES]);
      for (const family of HOSTILE_FAMILIES) {
        const ofFamily = made.filter((b) => b.family === family);
        expect(ofFamily.map((b) => b.validAfterNfkc)).toEqual(Array.from({ length: perFamily }, (_, i) => i % 2 === 0));
        expect(new Set(ofFamily.map((b) => b.name)).size).toBe(perFamily);
        for (const [i, body] of ofFamily.entries()) expect(body.name.startsWith(`#${i + 1} `)).toBe(true);
      }
    },
  );

  it.each(HOSTILE_FAMILIES)(
    '%s: every body within the limits as sent; the even ones after NFKC too, the odd ones not',
    (family) => {
      for (const body of [...bodies, ...hostileBodies(99, 4)].filter((b) => b.family === family)) {
        expect({ name: body.name, problems: problems(body, length) }).toEqual({ name: body.name, problems: [] });
        const afterIt = problems(body, (text) => length(nfkc(text)));
        if (body.validAfterNfkc) {
          expect({ name: body.name, problems: afterIt }).toEqual({ name: body.name, problems: [] });
          expect(accepted(body)).toBe(true);
          expect(accepted(afterNfkc(body))).toBe(true);
        } else {
          expect({ name: body.name, past: afterIt.length > 0 }).toEqual({ name: body.name, past: true });
        }
      }
    },
  );

  it('each family is what it says', () => {
    const of = (family: string) => bodies.filter((b) => b.family === family);
    const grows = (text: string) => length(nfkc(text)) > length(text);
    expect(
      of('nfkc-expanding').every((b) => grows(b.password) && b.userInputs.length === 20 && b.userInputs.every(grows)),
    ).toBe(true);
    expect(
      of('dense-userinputs').every((b) => b.userInputs.length === 20 && new Set(nfkc(b.password)).size === 1),
    ).toBe(true);
    expect(
      of('overlapping-bannedwords').every(
        (b) => b.bannedWords.length === 1000 && b.userInputs.length === 0 && length(b.password) === 256,
      ),
    ).toBe(true);
    expect(of('l33t-runs').map((b) => [length(b.password), b.userInputs.length > 0, b.bannedWords.length > 0])).toEqual(
      [
        [256, true, true],
        [256, true, true],
        [64, true, false],
        [256, true, false],
        [48, false, true],
        [256, false, true],
      ],
    );
    expect(of('repeated-characters').every((b) => b.userInputs.length === 0 && b.bannedWords.length === 0)).toBe(true);
    expect(of('letters-alternating-l33t').every((b) => /^(?:\p{L}\P{L})+\p{L}?$/u.test(b.password))).toBe(true);
    // The case comes first in its family: U+2A0C x 256 as sent, with UserInputs of U+2A0C tokens.
    expect(of('nfkc-expanding')[1]!.password).toBe('\u2A0C'.repeat(256));
  });
});
