import type { Parameters } from 'fast-check';

/**
 * fast-check settings shared by every property: a fixed default seed so CI is reproducible, FC_SEED to
 * replay a reported failure, FC_RANDOM=1 to explore new seeds. fast-check prints the seed and the
 * shrunk path in every failure message.
 */
export function fcParams<T>(numRuns: number): Parameters<T> {
  const fromEnv = process.env.FC_SEED;
  const seed =
    fromEnv !== undefined ? Number(fromEnv) : process.env.FC_RANDOM === '1' ? Date.now() % 2 ** 31 : 20261129;
  return { numRuns, seed, endOnFailure: false };
}
