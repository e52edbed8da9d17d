// A renewal forwarded from a keep-alive stream runs in the stream's context (etcd's
// LeaseRenew(stream.Context(), …)): once the stream has ended, the loop that waits for a leader renews
// nothing. First found as run 5973 of `lessor-sim check --seed 5` (a restarted single member renewing
// from a stream closed a second earlier); since a require-leader stream is refused at once on a member
// without a leader, the case is built here from a stream opened while n2 still had one: n1 and n3 crash,
// n2's forwarded renewals wait for a leader, the require-leader monitor cancels the stream at 5 s, and a
// leader exists again only at 6.5 s.
import { describe, expect, it } from 'vitest';
import { BUG_NAMES } from '../../../src/switches/bugs.js';
import { checkScenario } from '../../../src/properties/check/check-run.js';
import { parseScenario } from '../../../src/scenario/parse.js';

const YAML = `name: forwarded-renewal-ends-with-stream
profile: v3.5
cluster: { members: 3 }
duration: 20s
steps:
  - at: 0s
    grant: { lease: L1, ttl: 3 }
  - at: 0s
    keepalive: { lease: L1, client: c1, via: n2 }
  - at: 1s
    crash: { member: n1 }
  - at: 1s
    crash: { member: n3 }
  - at: 6s
    restart: { member: n3 }
`;

describe('a forwarded keep-alive renewal', () => {
  it('stops with its stream: no renewal after the streams ended, and the lease goes by its promoted deadline', () => {
    const p = parseScenario(YAML, 'forwarded-renewal-ends-with-stream.yaml', { knownBugs: BUG_NAMES });
    if (!p.ok) throw new Error('scenario does not parse');
    const v = checkScenario(p.scenario, { properties: ['bounded-drift', 'no-early-expiry'] });
    const events = v.result.trace.events;
    const closed = events.find((e) => e.kind === 'client-keepalive-closed');
    expect(closed).toBeDefined();
    // Only the answered renewal before the crashes: none after the channel closed (the stale forwarded
    // loops would renew at 6.5 s, once n2 leads).
    const renews = events.filter((e) => e.kind === 'lease-renew').map((e) => e.t);
    expect(renews.length).toBeGreaterThan(0);
    expect(Math.max(...renews)).toBeLessThan(closed!.t);
    // The new leader's promotion gives the lease TTL + election timeout from 6.5 s: revoked after 10.5 s.
    const revoke = events.find((e) => e.kind === 'lease-revoke');
    expect(revoke?.t).toBeGreaterThan(10_500_000);
    expect(v.violations).toEqual([]);
  });
});
