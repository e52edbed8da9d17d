// A renewal forwarded from a keep-alive stream runs in the stream's context (etcd's
// LeaseRenew(stream.Context(), …)): once the stream has ended, the loop that waits for a leader renews
// nothing. Run 5973 of `lessor-sim check --seed 5`, shrunk: a single member restarts and takes 4 s to
// elect itself while two keep-alive clients give up on their streams; the model used to renew the lease
// at 10.678 s from a stream closed at 9.677 s, past what any acknowledged renewal allowed.
import { describe, expect, it } from 'vitest';
import { BUG_NAMES } from '../../../src/lessor/bugs.js';
import { checkScenario } from '../../../src/properties/check/check-run.js';
import { parseScenario } from '../../../src/scenario/parse.js';

const YAML = `name: forwarded-renewal-ends-with-stream
profile: v3.5
cluster: { members: 1, heartbeat: 150ms, election-timeout: 3s, latency: 500us }
duration: 15.677s
steps:
  - at: 1s
    grant: { lease: L1, ttl: 1 }
  - at: 1.01s
    keepalive: { lease: L1, client: c2 }
  - at: 1.02s
    crash: { member: n1 }
  - at: 2.02s
    keepalive-once: { lease: L1 }
  - at: 2.02s
    pause: { client: c2, for: 5.657s }
  - at: 3.02s
    keepalive: { lease: L1, client: c1 }
  - at: 4.02s
    restart: { member: n1 }
`;

describe('a forwarded keep-alive renewal', () => {
  it('stops with its stream: no renewal after the streams ended, and the lease goes by its last deadline', () => {
    const p = parseScenario(YAML, 'forwarded-renewal-ends-with-stream.yaml', { knownBugs: BUG_NAMES });
    if (!p.ok) throw new Error('scenario does not parse');
    const v = checkScenario(p.scenario, { properties: ['bounded-drift', 'no-early-expiry'] });
    const renews = v.result.trace.events.filter((e) => e.kind === 'lease-renew').map((e) => e.t);
    // The renewals the restarted leader answers when it finds itself leader (10.02 s) are the last ones.
    expect(renews.length).toBeGreaterThan(1);
    expect(Math.max(...renews)).toBeLessThan(10_100_000);
    const revoke = v.result.trace.events.find((e) => e.kind === 'lease-revoke');
    expect(revoke?.t).toBeLessThan(15_677_000);
    expect(v.violations).toEqual([]);
  });
});
