/**
 * l33t, read backwards: the letters a typed character may stand for, and the readings of a text. Shared by the
 * pattern caps, the rule model and the breached-password filter's canonical form.
 */

/** Reversed substitutions for reading a word: one letter each, or two where the character stands for either. */
export const L33T_READINGS: Readonly<Record<string, readonly string[]>> = {
  '4': ['a'],
  '@': ['a'],
  '8': ['b'],
  '(': ['c'],
  '{': ['c'],
  '[': ['c'],
  '<': ['c'],
  '3': ['e'],
  '6': ['g'],
  '9': ['g'],
  '1': ['i', 'l'],
  '!': ['i', 'l'],
  '|': ['i', 'l'],
  '0': ['o'],
  $: ['s'],
  '5': ['s'],
  '7': ['t', 'l'],
  '+': ['t'],
  '%': ['x'],
  '2': ['z'],
};

/** At most this many readings of one candidate word: 2^4, four characters that read two ways. */
export const MAX_READINGS = 16;

/** The lower-case text and its l33t readings, at most MAX_READINGS of them, the first reading of each character first. */
export function readingsOf(text: string): string[] {
  let readings = [text.toLowerCase()];
  let substituted = [''];
  for (const ch of text.toLowerCase()) substituted = spelledOn(substituted, ch);
  if (substituted[0] !== readings[0]) readings = [...readings, ...substituted];
  return readings;
}

/** The first MAX_READINGS readings of a text one lower-case character longer, from those of the text (readingsOf's step). */
export function spelledOn(substituted: readonly string[], ch: string): string[] {
  const options = L33T_READINGS[ch] ?? [ch];
  return substituted.flatMap((prefix) => options.map((option) => prefix + option)).slice(0, MAX_READINGS);
}
