/** Extensions for leases: bulk grants, and readings recorded in the output without an assertion. */
import type { Micros } from '../../clock/time.js';
import { bool, duration, int, leaseLabel, ttl } from '../codecs.js';
import type { ParseContext } from '../context.js';
import { formatDuration } from '../duration.js';
import { def, req, type Decoded } from '../fields.js';
import { answerAs } from '../answer-form.js';
import type { StepFields, StepKindEntries } from './entry.js';
import { noClash } from './lease-steps.js';
import { lease, via, viaText } from './shared-fields.js';
import type { GrantManyStep } from '../types.js';
import { grantManyLabel } from '../lease-labels.js';

/**
 * Leases all `grant-many` steps of one file may ask for. A replay keeps its whole trace: measured at about
 * 9 KB of peak RSS per lease under `run` (bench/memory.ts), so this many fit the CLI's 4 GiB memory budget
 * with room for the rest of the scenario; more is refused here, before anything runs.
 */
export const MAX_GRANT_MANY = 250_000;
/**
 * When the i-th grant (from 1) of a `grant-many` is sent, after the step's instant: spaced evenly over its
 * spread. The simulation and the real-etcd driver both send on this schedule.
 */
export const grantManyOffsetUs = (s: GrantManyStep, i: number): Micros => Math.floor(((i - 1) * s.spreadUs) / s.count);

/** Leases the file's earlier grant-many steps asked for, per file being parsed. */
const granted = new WeakMap<ParseContext, number>();

export const LEASE_EXTENSION_STEPS: StepKindEntries<'grant-many' | 'timetolive' | 'leases'> = {
  'grant-many': {
    description: 'Extension: grants `count` leases labelled prefix1..prefixN, spaced evenly over `spread`.',
    fields: {
      prefix: req('prefix', leaseLabel, 'Label prefix; the leases are labelled prefix1..prefixN.'),
      count: req('count', int(1, MAX_GRANT_MANY, `a lease count from 1 to ${MAX_GRANT_MANY}`), 'Number of leases.'),
      ttlSeconds: req('ttl', ttl, 'Requested TTL of each lease in whole seconds.'),
      via,
      spreadUs: def('spread', duration(), 0, 'Span over which the grants are spaced evenly; default 0 (all at once).'),
    },
    check: grantLabels,
    describe: (s) =>
      `grant ${s.count} leases ${s.prefix}1..${s.prefix}${s.count} with TTL ${s.ttlSeconds} s${
        s.spreadUs > 0 ? ` over ${formatDuration(s.spreadUs)}` : ''
      }${viaText(s.via)}`,
    endUs: (s) => s.atUs + s.spreadUs,
    perform: (s, r) => {
      for (let i = 1; i <= s.count; i++) {
        const at = s.atUs + grantManyOffsetUs(s, i);
        const label = grantManyLabel(s.prefix, i);
        if (at === s.atUs) r.grant(label, s.ttlSeconds, 0n, s.via);
        else r.cluster.sched.at(at, () => r.grant(label, s.ttlSeconds, 0n, s.via));
      }
    },
  },
  timetolive: {
    description: 'Extension: records a LeaseTimeToLive reading in the output (no assertion).',
    fields: { lease, via, keys: def('keys', bool, false, 'Also list the keys attached to the lease.'), as: answerAs },
    describe: (s) => `TimeToLive ${s.lease}${s.keys ? ' --keys' : ''}${viaText(s.via)}`,
    perform: (s, r) =>
      r.withLease(s.lease, 'timetolive', (id) =>
        r.ctl(s.via).timeToLive(id, { keys: s.keys }, r.answer('timetolive', id, undefined, s.as)),
      ),
  },
  leases: {
    description: 'Extension: records a LeaseLeases listing in the output.',
    fields: { via, as: answerAs },
    describe: (s) => `list leases${viaText(s.via)}`,
    perform: (s, r) => r.ctl(s.via).leases(r.answer('leases', undefined, undefined, s.as)),
  },
};

function grantLabels({ value: v, posOf, pos }: Decoded<StepFields<'grant-many'>>, ctx: ParseContext): boolean {
  const total = (granted.get(ctx) ?? 0) + (v.count ?? 0);
  granted.set(ctx, total);
  if (v.count !== undefined && total > MAX_GRANT_MANY) {
    ctx.error(
      posOf.count ?? pos,
      `the grant-many steps of this file ask for ${total} leases in all, more than ${MAX_GRANT_MANY}, ` +
        'the most that fit the 4 GiB memory budget of a replay',
    );
    return false;
  }
  if (v.prefix === undefined) return true;
  const at = posOf.prefix ?? pos;
  // A bad count still registers the prefix (for the largest count) so later uses do not cascade.
  return noClash(
    ctx,
    `${v.prefix}1..${v.prefix}N`,
    at,
    ctx.labels.defineRange(v.prefix, v.count ?? MAX_GRANT_MANY, at),
  );
}
