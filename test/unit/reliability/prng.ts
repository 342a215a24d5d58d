// A small seeded PRNG (mulberry32) for the reliability tests: the same seed replays the same run. The seed comes from
// EDGEKIT_SEED when set, so a failing run can be repeated exactly; every test prints the seed it used.

import { mulberry32 } from '../../../mock/src/prng';

export interface Rng {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, n). */
  int(n: number): number;
  pick<T>(items: readonly T[]): T;
  readonly seed: number;
}

export function rng(seed: number): Rng {
  const next = mulberry32(seed);
  const int = (n: number): number => Math.floor(next() * n);
  return { seed, next, int, pick: (items) => items[int(items.length)] };
}

/** EDGEKIT_SEED if given (a decimal integer), else a fixed default per test so runs are reproducible. */
export function seedFromEnv(fallback: number): number {
  const v = process.env.EDGEKIT_SEED;
  return v && /^\d+$/.test(v) ? Number(v) : fallback;
}
