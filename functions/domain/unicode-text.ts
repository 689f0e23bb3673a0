/**
 * What a text the service is given may hold, and how long it is: the one home of the character classes the
 * evaluation request (Password, UserInputs) and a strength policy's BannedWords refuse, of the length the
 * limits on what the evaluation matches count, and of the escaping that shows such characters to an operator
 * without handing them to a terminal raw (the policy CLI's plan and history).
 */

/** Control characters (C0, DEL, C1): no password field lets anyone type them; a stray newline is a client bug. */
export const CONTROL_CHARACTER = /\p{Cc}/u;
/** In u-mode a surrogate pair is one code point, so only an unpaired surrogate (a lone \\uD800 escape) matches. */
export const UNPAIRED_SURROGATE = /\p{Cs}/u;
/**
 * Format characters (\p{Cf}): invisible, and some reorder what is shown around them. The bidirectional
 * controls (U+200E, U+200F, U+202A-U+202E, U+2066-U+2069), the zero-width ones (U+200B-U+200D, U+2060,
 * U+FEFF), the soft hyphen (U+00AD) and the tags (U+E0001, U+E0020-U+E007F) among them.
 */
const FORMAT_CHARACTER = /\p{Cf}/u;
/**
 * The 66 noncharacters, which Unicode reserves for a program's own use and never assigns: U+FDD0-U+FDEF and
 * the last two code points of each of the 17 planes (U+FFFE, U+FFFF, U+1FFFE, ... U+10FFFF).
 */
export const NONCHARACTER = new RegExp(
  `[\\u{FDD0}-\\u{FDEF}${Array.from({ length: 17 }, (_, plane) => `\\u{${(plane * 0x10000 + 0xfffe).toString(16)}}\\u{${(plane * 0x10000 + 0xffff).toString(16)}}`).join('')}]`,
  'u',
);

/**
 * The length of a text as every limit on what the evaluation matches counts it (Password, UserInputs,
 * BannedWords): its code points as sent and after Unicode NFKC normalization, whichever is more. The
 * matcher works on the NFKC form, which can be longer (U+2A0C is four characters, U+FDFA eighteen) or
 * shorter (`e` then U+0301 is one `é`); the larger of the two bounds both what is received and what is
 * matched. A lone surrogate is one code point either way (NFKC keeps it).
 */
export function matchedLength(text: string): number {
  return Math.max([...text].length, [...text.normalize('NFKC')].length);
}

/** How a phrase says the length is counted, after "must be at most N characters, ". */
export const MATCHED_LENGTH_COUNTED =
  'both as sent and after Unicode NFKC normalization (which expands some characters, such as ligatures, into several)';

/** The kinds of character a strength policy's BannedWords refuse, in the order they are looked for. */
const REFUSED_IN_WORDS = [
  ['control character', CONTROL_CHARACTER],
  ['unpaired surrogate', UNPAIRED_SURROGATE],
  ['format character', FORMAT_CHARACTER],
  ['noncharacter', NONCHARACTER],
] as const;

export type RefusedCharacterKind = (typeof REFUSED_IN_WORDS)[number][0];

/** One character a word must not hold: its kind, its code point as Unicode names it (`U+202E`), its place (the first is 1). */
export interface RefusedCharacter {
  readonly kind: RefusedCharacterKind;
  readonly codePoint: string;
  readonly position: number;
}

/** The first control character, unpaired surrogate, format character or noncharacter of a text; undefined when it holds none. */
export function refusedCharacter(text: string): RefusedCharacter | undefined {
  let position = 0;
  for (const ch of text) {
    position += 1;
    const kind = REFUSED_IN_WORDS.find(([, pattern]) => pattern.test(ch))?.[0];
    if (kind !== undefined) return { kind, codePoint: codePointName(ch), position };
  }
  return undefined;
}

/** `U+202E`: a code point as Unicode names it, at least four hex digits, upper case. */
function codePointName(ch: string): string {
  return `U+${hex(ch)}`;
}

function hex(ch: string): string {
  return ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
}

/**
 * What a terminal must never be handed raw: control characters (an escape sequence, a carriage return that
 * overwrites the line), format characters (U+202E shows the rest of its line reversed, U+200B hides a
 * difference), unpaired surrogates, noncharacters, and the line and paragraph separators (U+2028, U+2029),
 * on which some viewers break a line.
 */
const UNSHOWABLE = new RegExp(`[\\p{Cc}\\p{Cf}\\p{Cs}\\p{Zl}\\p{Zp}]|${NONCHARACTER.source}`, 'gu');

/**
 * The text with each character a terminal must not be handed raw written as an escape, `\u{202E}`, and every
 * other character as it is: the one escaping of every text the policy CLI's plan and history print.
 */
export function escapeUnshowable(text: string): string {
  return text.replace(UNSHOWABLE, (ch) => `\\u{${hex(ch)}}`);
}

/**
 * A text as the plan and history quote it: in double quotes, a quote and a backslash escaped by a backslash
 * (so a printed `\u{202E}` always stands for the escaped character, never for those characters typed), then
 * escapeUnshowable. The same as JSON.stringify writes a text that holds none of those characters.
 */
export function quoted(text: string): string {
  return `"${escapeUnshowable(text.replace(/["\\]/g, (ch) => `\\${ch}`))}"`;
}

/** A JSON value as the plan and history print it: JSON, every text in it (names of members too) quoted by quoted(). */
export function shownJson(value: unknown): string {
  if (typeof value === 'string') return quoted(value);
  if (Array.isArray(value)) return `[${value.map(shownJson).join(',')}]`;
  if (typeof value === 'object' && value !== null)
    return `{${Object.entries(value)
      .map(([name, member]) => `${quoted(name)}:${shownJson(member)}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? String(value);
}
