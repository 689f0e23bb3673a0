/**
 * design.md §6: a pattern is a sequence of placeholders, each optionally followed by {n} (1 <= n <= 256).
 * l u d s b a w, or \x for the literal x.
 */
export type PatternToken = { kind: 'l' | 'u' | 'd' | 's' | 'b' | 'a' | 'w'; count: number } | { kind: 'literal'; char: string; count: number };

export function parsePattern(pattern: string): PatternToken[] | string {
  const tokens: PatternToken[] = [];
  const chars = [...pattern];
  let i = 0;
  while (i < chars.length) {
    const c = chars[i]!;
    let token: PatternToken;
    if (c === '\\') {
      const literal = chars[i + 1];
      if (literal === undefined) return 'ends with a lone "\\"';
      token = { kind: 'literal', char: literal, count: 1 };
      i += 2;
    } else if ('ludsbaw'.includes(c)) {
      token = { kind: c as 'l', count: 1 };
      i += 1;
    } else {
      return `has an unknown placeholder "${c}" at position ${i + 1}`;
    }
    if (chars[i] === '{') {
      const close = chars.indexOf('}', i);
      const digits = close < 0 ? '' : chars.slice(i + 1, close).join('');
      if (!/^[0-9]{1,3}$/.test(digits) || Number(digits) < 1 || Number(digits) > 256) {
        return `has an invalid repeat at position ${i + 1} (use {n} with 1 <= n <= 256)`;
      }
      token.count = Number(digits);
      i = close + 1;
    }
    tokens.push(token);
  }
  return tokens.length > 0 ? tokens : 'must not be empty when GeneratePattern is on';
}

/** Returns why the pattern is invalid for the given character classes, or undefined when it is valid. */
export function checkPattern(pattern: string, classes: Record<'l' | 'u' | 'd' | 's' | 'b', { on: boolean; chars: string }>): string | undefined {
  const tokens = parsePattern(pattern);
  if (typeof tokens === 'string') return tokens;
  const anyChars = Object.values(classes).filter((c) => c.on).map((c) => c.chars).join('');
  for (const token of tokens) {
    if (token.kind === 'literal' || token.kind === 'w') continue;
    const set = token.kind === 'a' ? anyChars : classes[token.kind].chars;
    if (set === '') return `uses "${token.kind}", whose character set is empty for this policy`;
  }
  return undefined;
}
