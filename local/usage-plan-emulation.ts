import { usagePlanOf } from '../functions/routes';
import { USAGE_PLANS } from '../lib/deployment';

/**
 * API Gateway's usage plans as the local gateway emulates them (EMULATE_USAGE_PLANS=1): per usage identifier
 * key (the API key the authorizer names), a token bucket of the plan's burst, refilled at its rate, and a
 * daily quota. Off by default: the test suite and the soak drive the local run far past one client's limits.
 */
export class UsagePlanEmulation {
  private readonly buckets = new Map<string, { tokens: number; at: number; day: string; used: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Whether one more request of this key fits its plan; counts it when it does. */
  admit(usageKey: string, planName: unknown): boolean {
    const plan = USAGE_PLANS[usagePlanOf(planName)];
    const now = this.now();
    const day = new Date(now).toISOString().slice(0, 10);
    const bucket = this.buckets.get(usageKey) ?? { tokens: plan.burstLimit, at: now, day, used: 0 };
    bucket.tokens = Math.min(plan.burstLimit, bucket.tokens + ((now - bucket.at) / 1000) * plan.rateLimit);
    bucket.at = now;
    if (bucket.day !== day) Object.assign(bucket, { day, used: 0 });
    this.buckets.set(usageKey, bucket);
    if (bucket.tokens < 1 || bucket.used >= plan.quotaPerDay) return false;
    bucket.tokens -= 1;
    bucket.used += 1;
    return true;
  }
}
