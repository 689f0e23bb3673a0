import { USAGE_PLANS } from '../../lib/deployment';
import { UsagePlanEmulation } from '../../local/usage-plan-emulation';

/** The local gateway's usage plans, against a clock the test moves. */
describe('UsagePlanEmulation', () => {
  const clock = { now: Date.parse('2026-11-24T10:00:00Z') };
  const emulation = () => new UsagePlanEmulation(() => clock.now);
  const admitted = (e: UsagePlanEmulation, key: string, plan: unknown, n: number) =>
    Array.from({ length: n }, () => e.admit(key, plan)).filter(Boolean).length;

  it('admits a burst of the plan, then the plan rate, per key', () => {
    const e = emulation();
    expect(admitted(e, 'k1', 'standard', 30)).toBe(USAGE_PLANS.standard.burstLimit);
    // Another key has its own bucket.
    expect(admitted(e, 'k2', 'standard', 5)).toBe(5);
    clock.now += 1000;
    expect(admitted(e, 'k1', 'standard', 30)).toBe(USAGE_PLANS.standard.rateLimit);
  });

  it('a key on the high plan gets its larger burst; an unknown plan name counts as the default', () => {
    const e = emulation();
    expect(admitted(e, 'k3', 'high', 200)).toBe(USAGE_PLANS.high.burstLimit);
    expect(admitted(e, 'k4', 'gold', 200)).toBe(USAGE_PLANS.standard.burstLimit);
  });

  it('stops a key at its daily quota, and starts it again the next day (UTC)', () => {
    const e = emulation();
    clock.now = Date.parse('2026-11-24T00:00:00Z');
    let total = 0;
    for (
      let second = 0;
      second < USAGE_PLANS.standard.quotaPerDay / USAGE_PLANS.standard.rateLimit + 100;
      second += 1
    ) {
      total += admitted(e, 'k5', 'standard', USAGE_PLANS.standard.rateLimit);
      clock.now += 1000;
    }
    expect(total).toBe(USAGE_PLANS.standard.quotaPerDay);
    clock.now = Date.parse('2026-11-25T00:00:05Z');
    expect(e.admit('k5', 'standard')).toBe(true);
  });
});
