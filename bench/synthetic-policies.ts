import type { GeneratorPolicy } from '../functions/domain/generator-policy';
import { generatorPolicy } from '../testkit/policy-fixtures';
import { seededRandom } from '../bundling/guess-model';

/**
 * N valid generator policies with varied names and descriptions drawn from a small vocabulary, so a search
 * has realistic selectivity: SEARCH_TERM occurs in about one policy in TAG_EVERY (a few percent), in the
 * name of some and the description of others; no vocabulary word contains it. Deterministic (seeded).
 */
export const SEARCH_TERM = 'kerberos';
const TAG_EVERY = 29; // about 3.4 %

const WORDS = [
  'account',
  'admin',
  'backup',
  'branch',
  'build',
  'cloud',
  'cluster',
  'console',
  'contractor',
  'database',
  'desktop',
  'developer',
  'device',
  'directory',
  'domain',
  'edge',
  'email',
  'emergency',
  'finance',
  'firewall',
  'gateway',
  'guest',
  'helpdesk',
  'kiosk',
  'laptop',
  'legacy',
  'linux',
  'mainframe',
  'mobile',
  'monitoring',
  'network',
  'office',
  'operator',
  'partner',
  'payroll',
  'printer',
  'privileged',
  'production',
  'proxy',
  'remote',
  'router',
  'sandbox',
  'scanner',
  'server',
  'service',
  'shared',
  'staging',
  'storage',
  'switch',
  'temporary',
  'terminal',
  'testing',
  'vendor',
  'virtual',
  'voicemail',
  'windows',
  'wireless',
  'workstation',
  'vpn',
  'web',
];
const CONNECTORS = ['for', 'and', 'with', 'on', 'of', 'without', 'across', 'in'];

const capitalise = (word: string) => word[0]!.toUpperCase() + word.slice(1);

export function syntheticGeneratorPolicies(count: number, seed = 20240611): GeneratorPolicy[] {
  const next = seededRandom(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
  const policies: GeneratorPolicy[] = [];
  for (let i = 0; i < count; i++) {
    const id = i + 1;
    const nameWords = [pick(WORDS), pick(WORDS), pick(['accounts', 'policy', 'passwords', 'keys'])];
    const description: string[] = [];
    const length = 12 + Math.floor(next() * 16);
    for (let w = 0; w < length; w++) description.push(w % 4 === 3 ? pick(CONNECTORS) : pick(WORDS));
    if (i % TAG_EVERY === 7) {
      // The term goes in the name for every third tagged policy, in the description otherwise.
      if (Math.floor(i / TAG_EVERY) % 3 === 0) nameWords.splice(1, 0, SEARCH_TERM);
      else description.splice(Math.floor(next() * description.length), 0, SEARCH_TERM);
    }
    const minLength = 8 + Math.floor(next() * 25);
    policies.push(
      generatorPolicy({
        PasswordGeneratorID: id,
        GeneratorName: `${nameWords.map(capitalise).join(' ')} ${id}`,
        GeneratorDescription: `${capitalise(description.join(' '))}.`,
        MinLength: minLength,
        MaxLength: minLength + Math.floor(next() * 33),
      }),
    );
  }
  return policies;
}
