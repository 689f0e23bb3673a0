/**
 * The environment variables the bench's programs read, by name (the local run's are LOCAL_ENV,
 * local/local-environment.ts; the functions' ENV, functions/runtime.ts). What each does and its default:
 * docs/performance.md#running-the-bench.
 */
export const BENCH_ENV = {
  // npm run bench (bench/run.ts)
  sections: 'BENCH_SECTIONS',
  httpSeconds: 'BENCH_HTTP_SECONDS',
  coldRuns: 'BENCH_COLD_RUNS',
  profileRuns: 'BENCH_PROFILE_RUNS',
  seed: 'BENCH_SEED',
  // npm run soak (bench/soak.ts)
  soakSeconds: 'SOAK_SECONDS',
  soakConnections: 'SOAK_CONNECTIONS',
  soakOutage: 'SOAK_OUTAGE',
  // npm run bench:timing (bench/timing.ts)
  timingPairs: 'TIMING_PAIRS',
  // npm run bench:accuracy, npm run bench:validation (bench/accuracy.ts, bench/accuracy-validation.ts)
  accuracySample: 'ACCURACY_SAMPLE',
  accuracyFamily: 'ACCURACY_FAMILY',
  validationPerFold: 'VALIDATION_PER_FOLD',
  // npm run bench:languages (bench/languages.ts)
  languagesFamily: 'LANGUAGES_FAMILY',
} as const;
