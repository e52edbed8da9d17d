// Benchmark: the deadline holder's safety campaign. Two deadline holders (TTL 9 s, margin 1 s) compete
// for one lock for 40 s of virtual time under up to four generated faults each run: member and client
// pauses, leader moves, a member cut off and healed, and jumps of the holders' own clocks within ±SKEW.
// Counts stale writes accepted and runs with overlapping belief; a run where a holder property breaks
// is also checked for the cluster's own no-early-expiry guarantee (K1), which no holder can outrun.
// HOLDER_RUNS (default 10000) sets the number of runs; the first violating run of each cause is printed.
import fc from 'fast-check';
import { MICROS_PER_SECOND } from '../src/clock/time.js';
import { checkHolderRun, holderRunArb, type HolderCampaignOptions } from '../src/properties/index.js';
import { report, type BenchResult } from './report.js';

/** Within the 1 s margin: a jump of the holder's clock up to half of it, either way. */
const OPTIONS: HolderCampaignOptions = {
  strategy: 'deadline',
  ttlSeconds: 9,
  marginUs: MICROS_PER_SECOND,
  skewUs: MICROS_PER_SECOND / 2,
};

/**
 * The campaign twice: on the model as etcd is, and with the proposed fix of the finding class that can
 * break a holder property (resumed-leader-acts-on-stale-tick: an old leader revokes a lease the new
 * leader just renewed, an early expiry no holder can outrun).
 */
export function holderCampaignBench(runs = Number(process.env.HOLDER_RUNS ?? 10_000), seed = 11): BenchResult[] {
  return [
    ...holderCampaign(runs, seed, OPTIONS, 'holder campaign'),
    ...holderCampaign(
      runs,
      seed,
      { ...OPTIONS, fixes: ['confirm-leadership-by-read-index'] },
      'holder campaign, stale-tick fix on',
    ),
  ];
}

function holderCampaign(runs: number, seed: number, options: HolderCampaignOptions, title: string): BenchResult[] {
  const t0 = performance.now();
  let staleAccepted = 0;
  let staleOffered = 0;
  let overlapRuns = 0;
  let violations = 0;
  let earlyExpiry = 0;
  let acquisitions = 0;
  let staleWhereK1Held = 0;
  let overlapWhereK1Held = 0;
  const firsts = new Map<string, string>();
  const texts = fc.sample(holderRunArb(options), { seed, numRuns: runs });
  for (const text of texts) {
    const v = checkHolderRun(text);
    for (const h of v.report.holders) {
      staleAccepted += h.staleAccepted;
      staleOffered += h.staleOffered;
      acquisitions += h.acquisitions;
    }
    if (v.report.overlapUs > 0) overlapRuns++;
    if (v.violation === undefined) continue;
    violations++;
    if (v.earlyExpiry !== undefined) earlyExpiry++;
    else {
      staleWhereK1Held += v.report.holders.reduce((n, h) => n + h.staleAccepted, 0);
      if (v.report.overlapUs > 0) overlapWhereK1Held++;
    }
    const cause = v.earlyExpiry !== undefined ? 'etcd revoked early (K1)' : v.violation.property;
    if (!firsts.has(cause))
      firsts.set(
        cause,
        `${v.violation.message}${v.earlyExpiry !== undefined ? `; ${v.earlyExpiry.message}` : ''}\n${text}`,
      );
  }
  const ms = performance.now() - t0;
  for (const [cause, what] of firsts) console.log(`${title}: first run where ${cause}: ${what}`);
  return [
    report(title, {
      runs,
      fixes: options.fixes?.join(',') ?? 'none',
      strategy: 'deadline',
      'TTL s': 9,
      'margin s': 1,
      'clock skew bound s': 0.5,
      acquisitions,
      'stale writes offered': staleOffered,
      'stale writes accepted': staleAccepted,
      'runs with overlap': overlapRuns,
      'runs with a holder violation': violations,
      'of which etcd revoked early (K1)': earlyExpiry,
      'stale accepted where K1 held': staleWhereK1Held,
      'overlap runs where K1 held': overlapWhereK1Held,
      'ms/run': (ms / runs).toFixed(1),
    }),
  ];
}
