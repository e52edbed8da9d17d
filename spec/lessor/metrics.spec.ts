// etcd's lessor metrics: grants and revokes count on every member, renewals only on the primary.
import { describe, expect, it } from 'vitest';
import { seconds } from '../../src/clock/time.js';
import { Cluster } from '../../src/cluster/cluster.js';
import { V3_5 } from '../../src/switches/profile.js';
import { harness } from '../conformance/harness.js';

describe('lessor metrics', () => {
  it('counts grants and observes the clamped TTL in exponential buckets', () => {
    const { lessor } = harness(V3_5);
    lessor.grant(1n, 1); // clamped to 5
    lessor.grant(2n, 100);
    const m = lessor.metrics.snapshot();
    expect(m.etcd_debugging_lease_granted_total).toBe(2);
    expect(m['etcd_debugging_lease_ttl_total_bucket{le="4"}']).toBe(0);
    expect(m['etcd_debugging_lease_ttl_total_bucket{le="8"}']).toBe(1);
    expect(m['etcd_debugging_lease_ttl_total_bucket{le="64"}']).toBe(1);
    expect(m['etcd_debugging_lease_ttl_total_bucket{le="128"}']).toBe(2);
    expect(m['etcd_debugging_lease_ttl_total_bucket{le="+Inf"}']).toBe(2);
    expect(m.etcd_debugging_lease_ttl_total_sum).toBe(105);
    expect(m.etcd_debugging_lease_ttl_total_count).toBe(2);
  });

  it('in a cluster, every member counts grants and revokes; only the leader counts renewals', () => {
    const c = new Cluster();
    c.runUntil(seconds(1));
    const leader = c.server('n1')!;
    leader.raftRequest({ type: 'LeaseGrant', id: 5n, ttl: 10 }, () => {});
    c.runUntil(seconds(2));
    leader.lessor.renew(5n, () => {});
    leader.raftRequest({ type: 'LeaseRevoke', id: 5n }, () => {});
    c.runUntil(seconds(3));
    for (const n of c.names) {
      const m = c.server(n)!.lessor.metrics.snapshot();
      expect(m.etcd_debugging_lease_granted_total, n).toBe(1);
      expect(m.etcd_debugging_lease_revoked_total, n).toBe(1);
      expect(m.etcd_debugging_lease_renewed_total, n).toBe(n === 'n1' ? 1 : 0);
    }
  });
});
