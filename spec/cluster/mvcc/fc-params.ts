/**
 * fast-check parameters: `numRuns` runs, and the seed from FC_SEED when set so a failure reproduces.
 * fast-check prints the seed (and path) of a failing run in its error.
 */
export function fcParams(numRuns: number): { numRuns: number; seed?: number } {
  const seed = process.env.FC_SEED;
  return seed === undefined ? { numRuns } : { numRuns, seed: Number(seed) };
}
