/**
 * Search properties (docs/api.md#search), in process over the code the handlers run: buildCollection, parseSearch and
 * searchPolicies, with fast-check-generated collections (names and descriptions in any script, with the
 * characters whose case mapping is irregular: ß/ẞ, Greek final sigma, dotted İ, title-case digraphs,
 * compatibility forms that NFKC folds) and queries (random text, and substrings of the policies' own text).
 *
 *   1. the results are a subset of the collection, in the collection's order, each element unchanged;
 *   2. every result matches: each term of the query occurs in its name or its description;
 *   3. a policy whose name (or description) contains the query, whatever its letter case, always appears;
 *   4. the same query in other letter cases gives the same result;
 *   5. search of "" (and blank, and "*") is the list.
 * Then the same properties once over the seed collections, with queries drawn from their text.
 *
 * "Contains" and "letter case" are taken in Unicode's sense (default case folding), which is what
 * "compared case-insensitively" means to a user: "STRASSE" is "straße" in other letter cases, and "ΔΟΣ" is
 * contained in "ΟΔΟΣΑ". A term counts as found when it occurs after either NFKC + lower case (the rules'
 * wording) or NFKC + case folding, so these properties hold for either implementation of the fold.
 *
 * Seed: FC_SEED=<n> replays a run (printed on failure); FC_NUM_RUNS overrides the number of cases.
 * Run: npx jest test/reliability/search
 */
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { buildCollection, searchPolicies, type PolicyCollection } from '../../functions/domain/policy-collection';
import { generatorPolicies, type GeneratorPolicy } from '../../functions/domain/generator-policy';
import { validatePolicy, type PolicyResource } from '../../functions/domain/policy-collection';
import { parseSearch } from '../../functions/domain/policy-collection';
import { strengthPolicies } from '../../functions/domain/strength-policy';
import { PROJECT_ROOT } from '../support/local-service';
import { generatorPolicy } from '../../testkit/policy-fixtures';
import { assertProperty, clip, shown } from '../support/property';

const RUNS = 1_000;

// ---------------------------------------------------------------------------------------------------------
// Reference text comparison, independent of functions/domain/policy-collection.ts.

const lowerFold = (s: string): string => s.normalize('NFKC').toLowerCase();
/**
 * Unicode default (full) case folding after NFKC, approximated: lower case, then the full folds that lower
 * casing misses for the scripts generated here (ß and ẞ fold to "ss", final sigma to sigma), NFKC again.
 * Dotless ı and dotted İ keep their default (non-Turkic) folds: "ı" and "I" are different letters.
 */
const caseFold = (s: string): string =>
  s.normalize('NFKC').toLowerCase().replace(/ß/g, 'ss').replace(/ς/g, 'σ').normalize('NFKC');
/** Two texts that are the same in other letter cases (Unicode's case-insensitive equality). */
const sameUpToCase = (a: string, b: string): boolean => caseFold(a) === caseFold(b);

/** The terms of a query after either fold (empty for "everything"). */
function termsOf(query: string, fold: (s: string) => string): string[] | 'all' {
  const text = fold(query).trim();
  return text === '' || text === '*' ? 'all' : text.split(/\s+/u);
}

/** Whether every term of the query is in the name or the description, under one consistent fold. */
function matchesUnder(fold: (s: string) => string, query: string, name: string, description: string): boolean {
  const terms = termsOf(query, fold);
  if (terms === 'all') return true;
  const [n, d] = [fold(name), fold(description)];
  return terms.every((t) => n.includes(t) || d.includes(t));
}

const segmenter = new Intl.Segmenter('und', { granularity: 'grapheme' });
const graphemes = (s: string): string[] => [...segmenter.segment(s)].map((g) => g.segment);

// ---------------------------------------------------------------------------------------------------------
// Arbitraries.

/** Characters and words whose case mapping or normalisation is irregular. */
const TRICKY = [
  'Straße',
  'STRASSE',
  'ß',
  'ẞ',
  'ΟΔΟΣΑ',
  'Οδός',
  'σοφία',
  'ΣΟΦΙΑ',
  'İstanbul',
  'ı',
  'ǅemal',
  'ǈ',
  'ﬁle',
  'Ⅻ',
  'Å',
  'K',
  'ｆｕｌｌ',
  'e\u0301',
  'café',
  '𝔘𝔫𝔦',
  'Ꭰꭰ',
  '🔑',
  'ŉ',
  'ΐ',
  'Ǆ',
];
const WORDS = [
  'network',
  'Service',
  'ACCOUNTS',
  'default',
  'policy',
  'Domain',
  'admin',
  'pin',
  'Wi-Fi',
  'root',
  '12',
  'a',
  ' ',
  '  ',
];

const textPiece = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...WORDS) },
  { weight: 3, arbitrary: fc.constantFrom(...TRICKY) },
  { weight: 3, arbitrary: fc.string({ unit: 'grapheme', maxLength: 6 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 4 }) },
);
const text = (maxPieces: number) => fc.array(textPiece, { maxLength: maxPieces }).map((pieces) => pieces.join(' '));

const policy = fc
  .record({ id: fc.integer({ min: 1, max: 500 }), name: text(6), description: text(12) })
  .map(({ id, name, description }) =>
    generatorPolicy({
      PasswordGeneratorID: id,
      GeneratorName: name.slice(0, 100) || 'x',
      GeneratorDescription: description.slice(0, 1000),
    }),
  )
  .filter((p) => validatePolicy(generatorPolicies, p).ok);

const collection = fc.uniqueArray(policy, { selector: (p) => p.PasswordGeneratorID, maxLength: 15 }).map((ps) => {
  const sorted = [...ps].sort((a, b) => a.PasswordGeneratorID - b.PasswordGeneratorID);
  return shown(
    sorted,
    `[${sorted.map((p) => `#${p.PasswordGeneratorID} ${JSON.stringify(clip(p.GeneratorName, 60))} / ${JSON.stringify(clip(p.GeneratorDescription, 60))}`).join(', ')}]`,
  );
});

type CaseChange = 'none' | 'upper' | 'lower' | boolean[];
const caseChange: fc.Arbitrary<CaseChange> = fc.oneof(
  fc.constantFrom<CaseChange>('none', 'upper', 'lower'),
  fc.array(fc.boolean(), { minLength: 1, maxLength: 12 }),
);

function recase(s: string, change: CaseChange): string {
  if (change === 'none') return s;
  if (change === 'upper') return s.toUpperCase();
  if (change === 'lower') return s.toLowerCase();
  return graphemes(s)
    .map((g, i) => (change[i % change.length] ? g.toUpperCase() : g.toLowerCase()))
    .join('');
}

/** Where to cut a substring of some policy's text: indexes are taken modulo the actual sizes. */
const cut = fc.record({
  policy: fc.nat(),
  field: fc.constantFrom('name', 'description'),
  start: fc.nat(),
  length: fc.integer({ min: 1, max: 30 }),
  change: caseChange,
});

/** A grapheme-aligned substring of the NFKC form of the chosen text (what a user sees as contained). */
function substringOf(source: string, start: number, length: number): string {
  const g = graphemes(source.normalize('NFKC'));
  if (g.length === 0) return '';
  const from = start % g.length;
  return g.slice(from, from + length).join('');
}

const randomQuery = fc.oneof(
  text(3),
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc.constantFrom('', ' ', '*', ' * ', '\t', 'ss', 'SS', 'σ', 'ς', 'Σ', 'i̇', 'I'),
);

// ---------------------------------------------------------------------------------------------------------
// The properties, over any collection.

const run = (collection: PolicyCollection<Record<string, unknown>>, query: string): Record<string, unknown>[] =>
  JSON.parse(searchPolicies(collection, parseSearch(query)!)) as Record<string, unknown>[];

function subsetProblems(
  collection: PolicyCollection<Record<string, unknown>>,
  query: string,
  idField: string,
): string | undefined {
  const results = run(collection, query);
  let from = 0;
  for (const result of results) {
    const index = collection.policies.findIndex((p, i) => i >= from && JSON.stringify(p) === JSON.stringify(result));
    if (index < 0) return `result #${String(result[idField])} is not an element of the collection (or is out of order)`;
    from = index + 1;
  }
  return undefined;
}

function nonMatchingResult(
  collection: PolicyCollection<Record<string, unknown>>,
  // biome-ignore lint/suspicious/noExplicitAny: a check of either resource; PolicyResource<T> takes T in and out, so neither schema fits the other
  resource: PolicyResource<any>,
  query: string,
): string | undefined {
  for (const result of run(collection, query)) {
    const [name, description] = [String(result[resource.nameField]), String(result[resource.descriptionField])];
    if (!matchesUnder(lowerFold, query, name, description) && !matchesUnder(caseFold, query, name, description)) {
      return `result #${String(result[resource.idField])} (${JSON.stringify(name)} / ${JSON.stringify(description)}) does not match ${JSON.stringify(query)}`;
    }
  }
  return undefined;
}

function containedButMissing(
  collection: PolicyCollection<Record<string, unknown>>,
  // biome-ignore lint/suspicious/noExplicitAny: a check of either resource; PolicyResource<T> takes T in and out, so neither schema fits the other
  resource: PolicyResource<any>,
  target: Record<string, unknown>,
  query: string,
): string | undefined {
  if ([...query.normalize('NFKC').trim()].length > 256) return undefined;
  const ids = run(collection, query).map((p) => p[resource.idField]);
  return ids.includes(target[resource.idField])
    ? undefined
    : `policy #${String(target[resource.idField])} contains ${JSON.stringify(query)} but the search returned ${JSON.stringify(ids)}`;
}

function caseVariantProblems(
  collection: PolicyCollection<Record<string, unknown>>,
  query: string,
  change: CaseChange,
): string | undefined {
  // Only the variants that are the same text in Unicode's sense ("ı".toUpperCase() is "I", another letter).
  const variants = [query, query.toUpperCase(), query.toLowerCase(), recase(query, change)].filter(
    (q) => sameUpToCase(q, query) && [...q.normalize('NFKC').trim()].length <= 256,
  );
  const bodies = variants.map((q) => searchPolicies(collection, parseSearch(q)!));
  const differing = variants.findIndex((_, i) => bodies[i] !== bodies[0]);
  return differing < 0
    ? undefined
    : `${JSON.stringify(variants[0])} and ${JSON.stringify(variants[differing])} give different results: ${clip(bodies[0]!, 100)} vs ${clip(bodies[differing]!, 100)}`;
}

const failIf = (problem: string | undefined) => {
  if (problem !== undefined) throw new Error(problem);
};

const generated = (policies: GeneratorPolicy[]) =>
  buildCollection(generatorPolicies, policies) as unknown as PolicyCollection<Record<string, unknown>>;

// ---------------------------------------------------------------------------------------------------------

describe('search properties over generated collections', () => {
  test('results are a subset of the collection, in its order, elements unchanged', async () => {
    await assertProperty(
      'subset',
      fc.property(collection, randomQuery, (ps, q) => failIf(subsetProblems(generated(ps), q, 'PasswordGeneratorID'))),
      RUNS,
    );
  });

  test('every result matches the query by name or description', async () => {
    await assertProperty(
      'every result matches',
      fc.property(collection, randomQuery, (ps, q) => failIf(nonMatchingResult(generated(ps), generatorPolicies, q))),
      RUNS,
    );
  });

  test('a policy whose name or description contains the query (in any letter case) always appears', async () => {
    const property = fc.property(
      collection.filter((ps) => ps.length > 0),
      cut,
      (ps, c) => {
        const target = ps[c.policy % ps.length]!;
        const contained = substringOf(
          c.field === 'name' ? target.GeneratorName : target.GeneratorDescription,
          c.start,
          c.length,
        );
        const query = recase(contained, c.change);
        if (sameUpToCase(query, contained))
          failIf(containedButMissing(generated(ps), generatorPolicies, target, query));
      },
    );
    await assertProperty('contained query appears', property, RUNS);
  });

  test('the same query in other letter cases gives the same result', async () => {
    const query = fc.oneof(randomQuery, fc.constantFrom(...TRICKY));
    await assertProperty(
      'letter case',
      fc.property(collection, query, caseChange, (ps, q, change) =>
        failIf(caseVariantProblems(generated(ps), q, change)),
      ),
      RUNS,
    );
  });

  test('search of "" (or blank, or "*") is the list', async () => {
    const property = fc.property(
      collection,
      fc.constantFrom('', ' ', '   ', '\t', '\u3000', '*', ' * ', '\u00a0*\u00a0'),
      (ps, q) => {
        const collection = generated(ps);
        if (searchPolicies(collection, parseSearch(q)!) !== collection.body)
          throw new Error(`${JSON.stringify(q)} is not the list`);
        if (collection.body !== JSON.stringify(ps))
          throw new Error('the list is not the collection in identifier order');
      },
    );
    await assertProperty('empty search is the list', property, RUNS);
  });
});

describe('search properties over the seed collections', () => {
  const seed = <T extends object>(file: string, resource: PolicyResource<T>) => {
    const records = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'seed', file), 'utf8')) as unknown[];
    const policies = records.map((r) => {
      const result = validatePolicy(resource, r);
      if (!result.ok) throw new Error(`seed/${file} holds an invalid record: ${result.problems.join('; ')}`);
      return result.policy;
    });
    policies.sort((a, b) => (a[resource.idField] as number) - (b[resource.idField] as number));
    return {
      // biome-ignore lint/suspicious/noExplicitAny: a check of either resource; PolicyResource<T> takes T in and out, so neither schema fits the other
      resource: resource as PolicyResource<any>,
      policies: policies as unknown as Record<string, unknown>[],
      collection: buildCollection(resource, policies) as unknown as PolicyCollection<Record<string, unknown>>,
    };
  };
  const collections = [
    seed('generator-policies.json', generatorPolicies),
    seed('strength-policies.json', strengthPolicies),
  ];

  test.each(collections.map((c) => [c.resource.title, c] as const))(
    '%s: every property holds for queries drawn from the seed text',
    async (_title, c) => {
      const words = [
        ...new Set(
          c.policies.flatMap((p) =>
            `${String(p[c.resource.nameField])} ${String(p[c.resource.descriptionField])}`.split(/\s+/),
          ),
        ),
      ].filter(Boolean);
      const query = fc.oneof(
        randomQuery,
        fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 3 }).map((w) => w.join(' ')),
      );
      const property = fc.property(query, cut, caseChange, (q, k, change) => {
        failIf(subsetProblems(c.collection, q, c.resource.idField));
        failIf(nonMatchingResult(c.collection, c.resource, q));
        failIf(caseVariantProblems(c.collection, q, change));
        const target = c.policies[k.policy % c.policies.length]!;
        const contained = substringOf(
          String(target[k.field === 'name' ? c.resource.nameField : c.resource.descriptionField]),
          k.start,
          k.length,
        );
        if (sameUpToCase(recase(contained, k.change), contained))
          failIf(containedButMissing(c.collection, c.resource, target, recase(contained, k.change)));
        if (
          searchPolicies(c.collection, parseSearch('')!) !== c.collection.body ||
          c.collection.body !== JSON.stringify(c.policies)
        )
          throw new Error('search of "" is not the list');
      });
      await assertProperty(`seed ${c.resource.title}`, property, RUNS);
    },
  );
});
