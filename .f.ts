import * as common from '@zxcvbn-ts/language-common';
import { families } from './bench/accuracy';
import { firstLines, gzipLines, seededRandom, TRAINING_RANKS, TRAINING_SOURCE } from './bundling/guess-model';
import { zxcvbnEstimator } from './functions/domain/guessability';
import { BREACHED_PASSWORDS } from './functions/domain/breached-password-filter';
import { evaluatePassword } from './functions/domain/strength-evaluator';
const policy2 = require('./seed/strength-policies.json')[1];
(async () => {
  const training = (await firstLines(gzipLines(TRAINING_SOURCE.file), TRAINING_RANKS)).filter((l) => /^[a-z]{4,}$/.test(l));
  const base = [...new Set(training)].slice(0, 1000);
  const est = zxcvbnEstimator();
  for (const f of families(base, base.slice(0, 100), common.adjacencyGraphs.qwerty as any)) {
    const r = seededRandom(7 + f.name.length);
    let strong = 0; const ex: string[] = [];
    for (let i = 0; i < 1000; i++) { const p = f.make(r); const res = evaluatePassword(policy2, p, est, BREACHED_PASSWORDS.has(p)); if (res.ComplianceLevel >= 3) { strong++; if (ex.length < 8) ex.push(`${p}:${res.GuessesLog10}`); } }
    console.log(f.name, strong, ex.join(' '));
  }
})();
