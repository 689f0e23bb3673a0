/**
 * A seeded, deterministic RandomSource: xoshiro128** seeded by splitmix32, with rejection sampling into
 * [0, n), so statistical tests and pictures give the same result on every run.
 */
import type { RandomSource } from '../functions/domain/password-generator';

export function seeded(seed: number): RandomSource & { next(): number } {
  let x = seed >>> 0;
  const splitmix = () => {
    x = (x + 0x9e3779b9) >>> 0;
    let z = x;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
  let a = splitmix(),
    b = splitmix(),
    c = splitmix(),
    d = splitmix();
  const next = () => {
    const result = Math.imul(rotl(Math.imul(b, 5) >>> 0, 7), 9) >>> 0;
    const t = (b << 9) >>> 0;
    c ^= a;
    d ^= b;
    b ^= c;
    a ^= d;
    c ^= t;
    d = rotl(d >>> 0, 11);
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    return result;
  };
  return {
    next,
    int(n: number) {
      if (!Number.isInteger(n) || n < 1 || n > 2 ** 32) throw new RangeError(`bad bound ${n}`);
      const limit = 2 ** 32 - (2 ** 32 % n);
      let v: number;
      do v = next();
      while (v >= limit);
      return v % n;
    },
  };
}
function rotl(v: number, k: number): number {
  return ((v << k) | (v >>> (32 - k))) >>> 0;
}
