/**
 * The l33t spellings people use for a, e, i, o, s, g and b, the letters whose spellings the accuracy bench and
 * the evaluation's properties agree on; each adds its own spellings of t and l (the bench's families, whose
 * results docs/measured/accuracy.md holds, spell them 7 and 1 only). Written from how people spell, not read
 * from the evaluation's own table (functions/domain/evaluation/text/l33t.ts), so that a spelling the table
 * misses still reaches it.
 */
export const L33T_SPELLINGS: Readonly<Record<string, readonly string[]>> = {
  a: ['@', '4'],
  e: ['3'],
  i: ['1', '!'],
  o: ['0'],
  s: ['$', '5'],
  g: ['9'],
  b: ['8'],
};
