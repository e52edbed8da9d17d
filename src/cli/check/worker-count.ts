/**
 * How many worker threads `check` starts when `--workers` is not given. One worker keeps more than one
 * core busy (V8 compiles and collects garbage on threads of its own: ~1.45 cores measured on a 2-core
 * machine), and each worker pays its own warm-up (loading, compiling the hot paths) before its runs get
 * cheap; so a worker is worth starting for every two cores and only when it gets enough runs to pay off.
 */

/** Cores one worker keeps busy, rounded up. */
export const CORES_PER_WORKER = 2;

/** Fewest runs worth a worker's warm-up: a second worker on fewer made the campaign no faster. */
export const MIN_RUNS_PER_WORKER = 1500;

/** Workers for `runs` runs (undefined: unbounded, under --time-budget) on a machine with `cores` cores. */
export function defaultWorkers(cores: number, runs: number | undefined): number {
  const byCores = Math.max(1, Math.floor(cores / CORES_PER_WORKER));
  if (runs === undefined) return byCores;
  return Math.max(1, Math.min(byCores, Math.floor(runs / MIN_RUNS_PER_WORKER)));
}
