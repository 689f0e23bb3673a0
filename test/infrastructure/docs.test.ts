/**
 * The docs as a newcomer's manual (docs/architecture.md#one-home-per-fact): short enough to read, and every link between
 * them leads somewhere. Each fact has one home that the others link to, so a broken link is a lost fact.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { PROJECT_ROOT } from '../../bundling/bundling';

/** README and docs/*.md: what a reader reads. docs/measured/ holds tables the bench writes; they are linked, not read through. */
const READ = [
  'README.md',
  ...readdirSync(path.join(PROJECT_ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const LINKED = [...READ, ...readdirSync(path.join(PROJECT_ROOT, 'docs/measured')).map((f) => `docs/measured/${f}`)];

const text = (file: string) => readFileSync(path.join(PROJECT_ROOT, file), 'utf8');
/** Prose only: a fenced block's lines are code, whose `#` starts a comment and whose `](` is no link. */
const prose = (file: string) => text(file).replace(/```[\s\S]*?```/g, '');

/** GitHub's anchor of a heading: lower case, punctuation but hyphens and underscores dropped, spaces as hyphens. */
const anchorOf = (heading: string) =>
  heading
    .replace(/`/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- _]/gu, '')
    .replace(/ /g, '-');

function anchorsOf(file: string): Set<string> {
  const anchors = new Set<string>();
  for (const [, heading] of prose(file).matchAll(/^#{1,6} (.*)$/gm)) {
    const base = anchorOf(heading!);
    let anchor = base;
    // GitHub numbers a repeated heading's anchor: -1, -2, ...
    for (let n = 1; anchors.has(anchor); n++) anchor = `${base}-${n}`;
    anchors.add(anchor);
  }
  return anchors;
}

describe('the docs', () => {
  it('README and docs/*.md hold at most 30,000 words in all, as wc -w counts them', () => {
    const words = READ.reduce((sum, file) => sum + text(file).split(/\s+/).filter(Boolean).length, 0);
    expect(words).toBeLessThanOrEqual(30_000);
  });

  it('no document is over 500 lines', () => {
    const long = READ.filter((file) => text(file).split('\n').length - 1 > 500);
    expect(long).toEqual([]);
  });

  it('every relative link names a file that exists, and a heading of it when it names an anchor', () => {
    const anchors = new Map(LINKED.map((file) => [file, anchorsOf(file)]));
    const broken = LINKED.flatMap((file) =>
      [...prose(file).matchAll(/\]\(([^)\s]+)\)/g)]
        .map((m) => m[1]!)
        .filter((link) => !/^[a-z]+:/.test(link))
        .filter((link) => {
          const [target, anchor] = link.split('#');
          const linked = target ? path.normalize(path.join(path.dirname(file), target)) : file;
          if (!existsSync(path.join(PROJECT_ROOT, linked))) return true;
          return anchor !== undefined && linked.endsWith('.md') && !anchors.get(linked)?.has(anchor);
        })
        .map((link) => `${file}: ${link}`),
    );
    expect(broken).toEqual([]);
  });

  it('the anchor rule reads headings as GitHub does', () => {
    expect(anchorOf('Guess numbers: the rule model')).toBe('guess-numbers-the-rule-model');
    expect(anchorOf('`npm start`, step by step')).toBe('npm-start-step-by-step');
    expect(anchorOf('Évaluation (fr)')).toBe('évaluation-fr');
  });
});
