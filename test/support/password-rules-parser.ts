/**
 * A parser of Apple's password-rules language, written for the tests from the language's documentation
 * (apple/password-manager-resources, tools/PasswordRulesParser.js is its reference), and kept apart from
 * admin/password-rules.ts, which writes descriptors: a bug in the writer is not mirrored here. Strict where
 * Apple's parser is lenient (it skips what it cannot read), so a malformed descriptor fails a test.
 */
import type { RandomSource } from '../../functions/domain/password-generator';

export interface ParsedRules {
  /** One set per `required:` rule: the password holds at least one of its characters, each rule its own character. */
  readonly required: readonly ReadonlySet<string>[];
  /** Every character a password may hold: the `allowed:` sets and the required ones. */
  readonly allowed: ReadonlySet<string>;
  readonly minLength: number | undefined;
  readonly maxLength: number | undefined;
  readonly maxConsecutive: number | undefined;
}

const printable = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => String.fromCharCode(from + i));
const ASCII_PRINTABLE = printable(0x20, 0x7e);

/** The named classes, as Apple's documentation lists them. */
const IDENTIFIERS: Readonly<Record<string, readonly string[]>> = {
  upper: printable(0x41, 0x5a),
  lower: printable(0x61, 0x7a),
  digit: printable(0x30, 0x39),
  special: [...printable(0x20, 0x2f), ...printable(0x3a, 0x40), ...printable(0x5b, 0x60), ...printable(0x7b, 0x7e)],
  'ascii-printable': ASCII_PRINTABLE,
};

export class PasswordRulesSyntaxError extends Error {}

/** Reads a descriptor: `name: value[, value]; ...`, values being identifiers, [custom classes] or integers. */
export function parsePasswordRules(input: string): ParsedRules {
  const required: Set<string>[] = [];
  const allowed = new Set<string>();
  let allowedGiven = false;
  const minLengths: number[] = [];
  const maxLengths: number[] = [];
  const maxConsecutives: number[] = [];
  let i = 0;
  const fail = (what: string): never => {
    throw new PasswordRulesSyntaxError(`${what} at ${i} in ${JSON.stringify(input)}`);
  };
  const skipSpace = () => {
    while (i < input.length && ' \t\n\r\f'.includes(input[i]!)) i += 1;
  };
  const name = () => {
    const start = i;
    while (i < input.length && /[A-Za-z-]/.test(input[i]!)) i += 1;
    return input.slice(start, i);
  };
  const integer = () => {
    const start = i;
    while (i < input.length && /[0-9]/.test(input[i]!)) i += 1;
    if (i === start) fail('expected an integer');
    return Number(input.slice(start, i));
  };
  const customClass = (): string[] => {
    i += 1; // [
    const chars: string[] = [];
    while (i < input.length) {
      const c = input[i]!;
      // A "]" closes the class, unless another "]" follows it: then it is a member and that one closes.
      if (c === ']') {
        if (input[i + 1] === ']') {
          chars.push(']');
          i += 2;
        } else i += 1;
        return chars;
      }
      if (!ASCII_PRINTABLE.includes(c)) fail('a character outside ASCII printable');
      if (c === '-' && chars.length > 0) fail('a "-" that is not first in its class');
      chars.push(c);
      i += 1;
    }
    return fail('an unclosed character class');
  };
  const characterSet = (): Set<string> => {
    const set = new Set<string>();
    for (;;) {
      skipSpace();
      if (input[i] === '[') customClass().forEach((c) => set.add(c));
      else {
        const identifier = name().toLowerCase();
        const members = IDENTIFIERS[identifier];
        if (members === undefined) fail(`an unknown class ${JSON.stringify(identifier)}`);
        members!.forEach((c) => set.add(c));
      }
      skipSpace();
      if (input[i] !== ',') return set;
      i += 1;
    }
  };

  skipSpace();
  while (i < input.length) {
    const property = name();
    skipSpace();
    if (input[i] !== ':') fail(`expected ":" after ${JSON.stringify(property)}`);
    i += 1;
    skipSpace();
    switch (property) {
      case 'required':
        required.push(characterSet());
        break;
      case 'allowed':
        allowedGiven = true;
        characterSet().forEach((c) => allowed.add(c));
        break;
      case 'minlength':
        minLengths.push(integer());
        break;
      case 'maxlength':
        maxLengths.push(integer());
        break;
      case 'max-consecutive':
        maxConsecutives.push(integer());
        break;
      default:
        fail(`an unknown property ${JSON.stringify(property)}`);
    }
    skipSpace();
    if (i < input.length) {
      if (input[i] !== ';') fail('expected ";"');
      i += 1;
      skipSpace();
    }
  }
  // Required characters are allowed too; with neither property, every printable character is.
  required.forEach((set) => set.forEach((c) => allowed.add(c)));
  if (!allowedGiven && required.length === 0) ASCII_PRINTABLE.forEach((c) => allowed.add(c));
  return {
    required,
    allowed,
    // Several minimums: the largest holds; several maximums: the smallest.
    minLength: minLengths.length > 0 ? Math.max(...minLengths) : undefined,
    maxLength: maxLengths.length > 0 ? Math.min(...maxLengths) : undefined,
    maxConsecutive: maxConsecutives.length > 0 ? Math.min(...maxConsecutives) : undefined,
  };
}

/** Whether a password meets parsed rules: length, allowed characters, one distinct character per required rule. */
export function meetsRules(rules: ParsedRules, password: string): boolean {
  const chars = [...password];
  if (rules.minLength !== undefined && chars.length < rules.minLength) return false;
  if (rules.maxLength !== undefined && chars.length > rules.maxLength) return false;
  if (chars.some((c) => !rules.allowed.has(c))) return false;
  return assignable(rules.required, chars);
}

/** Whether each rule can have a character of its own (a matching: rules on one side, positions on the other). */
function assignable(required: readonly ReadonlySet<string>[], chars: readonly string[]): boolean {
  const owner = new Array<number>(chars.length).fill(-1);
  const claim = (rule: number, seen: Set<number>): boolean => {
    for (let at = 0; at < chars.length; at += 1) {
      if (!required[rule]!.has(chars[at]!) || seen.has(at)) continue;
      seen.add(at);
      if (owner[at] === -1 || claim(owner[at]!, seen)) {
        owner[at] = rule;
        return true;
      }
    }
    return false;
  };
  return required.every((_, rule) => claim(rule, new Set()));
}

/**
 * A password manager's generator that honours parsed rules: a length in [minLength, min(maxLength,
 * minLength + spread)], one character of each required rule, the rest from the allowed set, shuffled.
 */
export function generateFromRules(rules: ParsedRules, random: RandomSource, spread = 16): string {
  const min = Math.max(rules.minLength ?? 0, rules.required.length);
  const max = Math.min(rules.maxLength ?? min + spread, min + spread);
  const length = min + random.int(max - min + 1);
  const pick = (set: ReadonlySet<string>) => [...set][random.int(set.size)]!;
  const chars = rules.required.map(pick);
  while (chars.length < length) chars.push(pick(rules.allowed));
  for (let k = chars.length - 1; k > 0; k -= 1) {
    const j = random.int(k + 1);
    [chars[k], chars[j]] = [chars[j]!, chars[k]!];
  }
  return chars.join('');
}
