import { createHash } from 'node:crypto';
import type { GeneratorPolicy } from '../functions/domain/generator-policy';
import { entropyBits, generatePassword, type RandomSource } from '../functions/domain/password-generator';
import { MAX_PASSWORD_LENGTH } from '../functions/domain/evaluation';
import { COMPLIANCE_LEVELS } from '../functions/domain/compliance-levels';
import type { StrengthPolicy } from '../functions/domain/strength-policy';
import { WORD_LIST } from '../functions/domain/word-list';
import { COLLECTIONS, titleOf, type CollectionName, type Policy } from '../store/policy-store';
import { generatorPasswordRules, strengthPasswordRules, type PasswordRules } from './password-rules';
import {
  CLAUSES,
  ENTROPY_BOUND_BITS,
  generatedLengths,
  lintDeployment,
  lintGeneratorPolicy,
  lintStrengthPolicy,
  SEVERITY_LABELS,
  shortestCompliantLength,
  worstSeverity,
  type Finding,
  type LintContext,
  type Severity,
} from './policy-lint';

/**
 * `npm run policy -- report`: one self-contained HTML page (docs/administration.md#report), a card per policy
 * with its fields, figures, lint findings and passwordrules descriptor. Pure: the policies, the deployment's
 * settings and a random source in, the page out. No script, no request: its Content-Security-Policy allows
 * nothing but its own style sheet.
 */

export interface ReportInput {
  readonly generator: readonly GeneratorPolicy[];
  readonly strength: readonly StrengthPolicy[];
  readonly context: LintContext;
  /** For the sample passwords. */
  readonly random: RandomSource;
  /** When the report was made, as printed on it. */
  readonly generatedAt: string;
}

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text as HTML, for element content and quoted attribute values alike. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

const STYLE = `
:root { color-scheme: light; --shall: #b42318; --shall-bg: #fef3f2; --should: #b54708; --should-bg: #fffaeb; --advice: #475467; --advice-bg: #f2f4f7; --ok: #067647; --ok-bg: #ecfdf3; --line: #d0d5dd; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; color: #101828; background: #f9fafb; }
header.page { padding: 24px 32px 16px; background: #fff; border-bottom: 1px solid var(--line); }
h1 { margin: 0 0 4px; font-size: 22px; }
h2 { margin: 28px 32px 12px; font-size: 18px; }
.meta { margin: 0; color: #475467; }
.summary { display: flex; gap: 16px; flex-wrap: wrap; margin-top: 14px; }
.tally { padding: 10px 14px; border-radius: 8px; border: 1px solid var(--line); background: #fff; min-width: 170px; }
.tally strong { display: block; font-size: 24px; }
.tally.shall { border-color: var(--shall); background: var(--shall-bg); color: var(--shall); }
.tally.should { border-color: var(--should); background: var(--should-bg); color: var(--should); }
.tally.ok { border-color: var(--ok); background: var(--ok-bg); color: var(--ok); }
.breaking { margin: 10px 0 0; }
.breaking a { color: var(--shall); margin-right: 10px; }
.cards { display: grid; gap: 16px; padding: 0 32px; }
.card { background: #fff; border: 1px solid var(--line); border-left: 8px solid var(--ok); border-radius: 8px; padding: 14px 18px; display: grid; grid-template-columns: minmax(280px, 2fr) 3fr; gap: 8px 24px; }
.card.shall { border-left-color: var(--shall); }
.card.should { border-left-color: var(--should); }
.card.advice { border-left-color: var(--advice); }
.card > header { grid-column: 1 / -1; display: flex; align-items: baseline; gap: 12px; flex-wrap: wrap; }
.card h3 { margin: 0; font-size: 16px; }
.badge { font-size: 12px; font-weight: 600; padding: 2px 8px; border-radius: 999px; background: var(--ok-bg); color: var(--ok); }
.badge.shall { background: var(--shall); color: #fff; }
.badge.should { background: var(--should-bg); color: var(--should); }
.badge.advice { background: var(--advice-bg); color: var(--advice); }
.figures { margin: 0 0 8px; display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; }
.figures dt { color: #475467; }
.figures dd { margin: 0; }
table.fields { border-collapse: collapse; width: 100%; font-size: 12px; }
table.fields th, table.fields td { text-align: left; padding: 1px 6px 1px 0; border-bottom: 1px solid #eaecf0; vertical-align: top; }
table.fields th { font-weight: 500; color: #475467; white-space: nowrap; }
table.fields td { overflow-wrap: anywhere; }
code { font: 12px/1.4 ui-monospace, "DejaVu Sans Mono", monospace; background: #f2f4f7; padding: 1px 4px; border-radius: 4px; word-break: break-all; }
ul.findings { list-style: none; margin: 0; padding: 0; display: grid; gap: 8px; }
.finding { border-radius: 6px; padding: 6px 10px; background: var(--advice-bg); }
.finding.shall { background: var(--shall-bg); }
.finding.should { background: var(--should-bg); }
.severity { font-weight: 700; font-size: 12px; text-transform: uppercase; letter-spacing: .02em; }
.finding.shall .severity { color: var(--shall); }
.finding.should .severity { color: var(--should); }
.finding.advice .severity { color: var(--advice); }
blockquote { margin: 4px 0 2px 0; padding-left: 10px; border-left: 3px solid var(--line); color: #344054; font-size: 13px; }
blockquote cite { font-style: normal; font-weight: 600; }
.fix { margin: 2px 0 0; }
.none { color: var(--ok); margin: 0; }
.rules h4, .findings-block h4 { margin: 8px 0 4px; font-size: 13px; }
.notes { margin: 4px 0 0; padding-left: 18px; color: #475467; font-size: 12px; }
footer { padding: 24px 32px 40px; color: #475467; }
`;

function severityOf(findings: readonly Finding[]): Severity | 'ok' {
  return worstSeverity(findings) ?? 'ok';
}

function badge(findings: readonly Finding[]): string {
  const worst = severityOf(findings);
  if (worst === 'ok') return '<span class="badge">No finding</span>';
  const count = findings.filter((f) => f.severity === worst).length;
  return `<span class="badge ${worst}">${worst === 'advice' ? 'Advice only' : `${count} × ${escapeHtml(SEVERITY_LABELS[worst])}`}</span>`;
}

function findingHtml(f: Finding): string {
  const clauses = f.clauses
    .map((c) => `<blockquote><cite>${escapeHtml(c.ref)}</cite>: “${escapeHtml(c.quote)}”</blockquote>`)
    .join('');
  return `<li class="finding ${f.severity}"><span class="severity">${escapeHtml(SEVERITY_LABELS[f.severity])}</span> <code>${escapeHtml(f.field)}: ${escapeHtml(JSON.stringify(f.value))}</code> ${escapeHtml(f.message)}${clauses}<p class="fix"><strong>Fix:</strong> ${escapeHtml(f.fix)}</p></li>`;
}

function findingsHtml(findings: readonly Finding[]): string {
  if (findings.length === 0)
    return '<p class="none">No finding: nothing in this policy departs from the clauses the lint checks.</p>';
  return `<ul class="findings">${findings.map(findingHtml).join('')}</ul>`;
}

function fieldsTable(policy: object, fields: readonly string[]): string {
  const rows = fields.map(
    (field) =>
      `<tr><th>${escapeHtml(field)}</th><td>${escapeHtml(JSON.stringify((policy as Record<string, unknown>)[field]))}</td></tr>`,
  );
  return `<table class="fields"><tbody>${rows.join('')}</tbody></table>`;
}

function rulesHtml(rules: PasswordRules): string {
  const notes =
    rules.notes.length === 0
      ? ''
      : `<ul class="notes">${rules.notes.map((n) => `<li>${escapeHtml(n)}</li>`).join('')}</ul>`;
  return `<div class="rules"><h4>passwordrules</h4><code>${escapeHtml(rules.descriptor)}</code>${notes}</div>`;
}

function figuresHtml(figures: readonly (readonly [string, string])[]): string {
  return `<dl class="figures">${figures.map(([term, value]) => `<dt>${escapeHtml(term)}</dt><dd>${value}</dd>`).join('')}</dl>`;
}

interface Card {
  readonly anchor: string;
  readonly title: string;
  readonly findings: readonly Finding[];
  readonly html: string;
}

/** A policy's card, anchored and titled by its collection, ID and name: its figures and fields, then its findings and passwordrules. */
function card(
  collection: CollectionName,
  policy: object,
  findings: readonly Finding[],
  figures: readonly (readonly [string, string])[],
  rules: PasswordRules,
): Card {
  const { resource } = COLLECTIONS[collection];
  const fields = policy as Policy;
  const id = Number(fields[resource.idField]);
  const anchor = `${collection}-${id}`;
  const title = `${capitalised(titleOf(collection, id))}: ${String(fields[resource.nameField])}`;
  const left = figuresHtml(figures) + fieldsTable(policy, resource.fields);
  const html = `<article class="card ${severityOf(findings)}" id="${anchor}" aria-labelledby="${anchor}-title"><header><h3 id="${anchor}-title">${escapeHtml(title)}</h3>${badge(findings)}</header><div>${left}</div><div class="findings-block"><h4>Findings</h4>${findingsHtml(findings)}${rulesHtml(rules)}</div></article>`;
  return { anchor, title, findings, html };
}

const capitalised = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;

const bits = (policy: GeneratorPolicy) => (Math.floor(entropyBits(policy, WORD_LIST) * 10) / 10).toFixed(1);

function generatorCard(p: GeneratorPolicy, input: ReportInput): Card {
  const findings = lintGeneratorPolicy(p, input.context);
  const { shortest, longest } = generatedLengths(p);
  const figures: [string, string][] = [
    ['Generates', escapeHtml(shortest === longest ? `${shortest} characters` : `${shortest} to ${longest} characters`)],
    ['Entropy', escapeHtml(`≥ ${bits(p)} bits (bound: ${ENTROPY_BOUND_BITS})`)],
    [
      'Sample (never use it)',
      `<code class="sample">${escapeHtml(generatePassword(p, WORD_LIST, input.random))}</code>`,
    ],
  ];
  return card('generator', p, findings, figures, generatorPasswordRules(p));
}

function bannedWordCount(count: number): string {
  return count === 0 ? 'none' : `${count} word${count === 1 ? '' : 's'} (listed in the policy file)`;
}

function strengthCard(p: StrengthPolicy, input: ReportInput): Card {
  const findings = lintStrengthPolicy(p, input.context);
  const shortest = shortestCompliantLength(p);
  const figures: [string, string][] = [
    ['Shortest Compliant password', escapeHtml(shortest === undefined ? 'none' : `${shortest} characters`)],
    ['Longest evaluated', escapeHtml(`${MAX_PASSWORD_LENGTH} characters`)],
    [
      'Compliance',
      escapeHtml(
        `${COMPLIANCE_LEVELS[p.PasswordStrengthCompliance]}${p.ComplianceMandatory ? ', mandatory' : ', not mandatory'}`,
      ),
    ],
    // How many, not which: the list's home is the policy file (docs/administration.md#report says why).
    ['BannedWords', escapeHtml(bannedWordCount(p.BannedWords?.length ?? 0))],
  ];
  return card('strength', p, findings, figures, strengthPasswordRules(p));
}

function tally(label: string, count: number, className: string): string {
  return `<div class="tally ${className}"><strong>${count}</strong>${escapeHtml(label)}</div>`;
}

/** The whole page. */
export function renderPolicyReport(input: ReportInput): string {
  const generator = input.generator.map((p) => generatorCard(p, input));
  const strength = input.strength.map((p) => strengthCard(p, input));
  const all = [...generator, ...strength];
  const breaking = all.filter((c) => severityOf(c.findings) === 'shall');
  const deployment = lintDeployment(input.context);
  const style = STYLE.trim();
  const styleHash = createHash('sha256').update(style).digest('base64');
  const pwned = `${input.context.pwnedPasswordsCheck ? 'on' : 'off'}${input.context.pwnedPasswordsCheckAssumed ? ' (assumed)' : ''}`;
  const assumptions = [
    input.context.multiFactor
      ? 'passwords used only with a second factor (8-character minimum)'
      : 'passwords used as the only factor (15-character minimum)',
    `Pwned Passwords check ${pwned}`,
  ];
  const standards = `${CLAUSES.composition.ref.split(' item')[0]} and OWASP ASVS 5.0.0 V6.2`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'sha256-${styleHash}'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Password policies against the standards</title>
<style>${style}</style>
</head>
<body>
<header class="page">
<h1>Password policies against the standards</h1>
<p class="meta">${escapeHtml(standards)} · ${all.length} policies · made ${escapeHtml(input.generatedAt)} · assuming ${escapeHtml(assumptions.join('; '))}</p>
<div class="summary">${tally('break a SHALL', breaking.length, breaking.length > 0 ? 'shall' : 'ok')}${tally('depart from a SHOULD only', all.filter((c) => severityOf(c.findings) === 'should').length, 'should')}${tally('advice only or no finding', all.filter((c) => ['advice', 'ok'].includes(severityOf(c.findings))).length, 'ok')}</div>
${breaking.length > 0 ? `<p class="breaking">Breaking a SHALL: ${breaking.map((c) => `<a href="#${c.anchor}">${escapeHtml(c.title)}</a>`).join(' ')}</p>` : ''}
</header>
<h2>The deployment</h2>
<div class="cards"><section class="card ${severityOf(deployment)}" aria-label="The deployment"><header><h3>Evaluation settings</h3>${badge(deployment)}</header><div>${figuresHtml([['Pwned Passwords check', escapeHtml(pwned)]])}</div><div class="findings-block"><h4>Findings</h4>${findingsHtml(deployment)}</div></section></div>
<h2>Generator policies (${generator.length})</h2>
<div class="cards">${generator.map((c) => c.html).join('\n')}</div>
<h2>Strength policies (${strength.length})</h2>
<div class="cards">${strength.map((c) => c.html).join('\n')}</div>
<footer>npm run policy -- lint lists the same findings; docs/administration.md says what each one checks.</footer>
</body>
</html>
`;
}
