import { createHash } from 'node:crypto';
import { DEFAULT_LINT_CONTEXT } from '../../admin/policy-lint';
import { escapeHtml, renderPolicyReport } from '../../admin/policy-report';
import { generatorPolicies, type GeneratorPolicy } from '../../functions/domain/generator-policy';
import type { StrengthPolicy } from '../../functions/domain/strength-policy';
import { generatorPolicy, strengthPolicy } from '../../testkit/policy-fixtures';
import { NO_CONTEXT_WORDS } from '../support/lint-wording';
import { useSeedPolicies } from '../support/seed-policies';
import { seeded } from '../../testkit/seeded-random';

const SEED = useSeedPolicies();

const render = (generator: readonly GeneratorPolicy[], strength: readonly StrengthPolicy[], seed = 1) =>
  renderPolicyReport({
    generator,
    strength,
    context: DEFAULT_LINT_CONTEXT,
    random: seeded(seed),
    generatedAt: '2026-01-02T03:04:05.000Z',
  });

describe('the report page', () => {
  it('one card per policy, SHALL-breaking ones marked and linked from the summary', () => {
    const html = render(SEED.generator, SEED.strength);
    const cards = [...html.matchAll(/<article class="card (\w+)" id="([\w-]+)"/g)].map((m) => [m[2], m[1]]);
    expect(cards.map(([id]) => id)).toEqual([
      ...SEED.generator.map((p) => `generator-${p.PasswordGeneratorID}`),
      ...SEED.strength.map((p) => `strength-${p.PasswordStrengthPolicyID}`),
    ]);
    // Every strength policy breaks a SHALL (composition rules); generator policies 3, 4, 5, 6, 7, 9 and 11 do not.
    const breaking = cards.filter(([, severity]) => severity === 'shall').map(([id]) => id);
    expect(breaking).toEqual([
      'generator-1',
      'generator-2',
      'generator-8',
      'generator-10',
      'generator-12',
      ...SEED.strength.map((p) => `strength-${p.PasswordStrengthPolicyID}`),
    ]);
    expect(html).toContain('<div class="tally shall"><strong>15</strong>break a SHALL</div>');
    for (const id of breaking) expect(html).toContain(`<a href="#${id}">`);
  });

  it('is the same page for the same random source, and samples differ with another', () => {
    expect(render(SEED.generator, SEED.strength, 1)).toBe(render(SEED.generator, SEED.strength, 1));
    expect(render(SEED.generator, [], 1)).not.toBe(render(SEED.generator, [], 2));
  });

  it('needs nothing from anywhere: no script, no external reference, and a Content-Security-Policy allowing only its own style sheet', () => {
    const html = render(SEED.generator, SEED.strength);
    expect(html).not.toMatch(/<script|<img|<link|<iframe|src=|url\(|@import/i);
    expect([...html.matchAll(/href="([^"]*)"/g)].every((m) => m[1]!.startsWith('#'))).toBe(true);
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1]!;
    const hash = createHash('sha256').update(style).digest('base64');
    expect(html).toContain(
      `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'sha256-${hash}'">`,
    );
  });

  it('every policy string is escaped: a name holding <script> is text', () => {
    const name = '<script>window.injected = 1</script> & "quotes" \'too\'';
    const html = render(
      [generatorPolicy({ PasswordGeneratorID: 7, GeneratorName: name, SpecialCharsText: '<>&"\'' })],
      [strengthPolicy({ PolicyName: name, PolicyDescription: '</td></tr></table><b>bold</b>' })],
    );
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<b>bold</b>');
    expect(html).toContain(`Generator policy 7: ${escapeHtml(name)}`);
    expect(html).toContain('&lt;script&gt;window.injected = 1&lt;/script&gt; &amp; &quot;quotes&quot; &#39;too&#39;');
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });

  it('a card holds the fields, the figures, each finding with its clause, and the passwordrules descriptor', () => {
    const html = render([SEED.generator[0]!], []);
    const card = /<article[\s\S]*?<\/article>/.exec(html)![0];
    for (const field of generatorPolicies.fields) expect(card).toContain(`<th>${field}</th>`);
    expect(card).toContain('<dt>Entropy</dt><dd>≥ 62.1 bits (bound: 112)</dd>');
    expect(card).toMatch(/<dt>Sample \(never use it\)<\/dt><dd><code class="sample">[^<]{12,16}<\/code><\/dd>/);
    expect(card).toContain(
      '<cite>NIST SP 800-63B-4 §3.1.1.2 item 1</cite>: “Verifiers and CSPs SHALL require passwords that are used as a single-factor authentication mechanism to be a minimum of 15 characters in length.”',
    );
    expect(card).toContain(
      '<code>required: [abcdefghijkmnpqrstuvwxyz]; required: [ABCDEFGHJKLMNPQRSTUVWXYZ]; required: [23456789]; required: [-!#$%&amp;*+=?@^_];',
    );
  });

  it('a strength card counts the BannedWords without listing them, and shows their findings', () => {
    const cardOf = (policy: StrengthPolicy) => /<article[\s\S]*?<\/article>/.exec(render([], [policy]))![0];
    const none = cardOf(SEED.strength[0]!);
    expect(none).toContain('<dt>BannedWords</dt><dd>none</dd>');
    expect(none).toContain(
      `<span class="severity">departs from a SHOULD</span> <code>BannedWords: []</code> ${escapeHtml(NO_CONTEXT_WORDS.message)}`,
    );
    expect(none).toContain(`<strong>Fix:</strong> ${escapeHtml(NO_CONTEXT_WORDS.fix)}</p>`);
    expect(none).toContain(
      '<cite>OWASP ASVS 5.0.0 6.2.11 (L2)</cite>: “Verify that the documented list of context specific words is used to prevent easy to guess passwords being created.”',
    );
    const words = ['Fabrikam', 'Contoso', 'F@BR1K4M'];
    const listed = cardOf({ ...SEED.strength[1]!, BannedWords: words });
    expect(listed).toContain('<dt>BannedWords</dt><dd>3 words (listed in the policy file)</dd>');
    expect(listed).not.toContain('Contoso');
    // The one finding about an entry names it, and the entry it repeats.
    expect(listed).toContain(
      '<span class="severity">advice</span> <code>BannedWords[2]: &quot;F@BR1K4M&quot;</code> Reads as BannedWords[0] &quot;Fabrikam&quot;',
    );
    expect(listed).not.toContain('<code>BannedWords: []</code>');
    expect(cardOf({ ...SEED.strength[1]!, BannedWords: ['Contoso'] })).toContain(
      '<dt>BannedWords</dt><dd>1 word (listed in the policy file)</dd>',
    );
  });
});
