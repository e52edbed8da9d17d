/**
 * etcd's lessor metrics (server/lease/metrics.go). Names are etcd's so a dashboard query reads the same.
 * Grant and revoke count on every member (they run at apply time); renew only on the primary.
 */
export const TTL_BUCKETS: readonly number[] = Array.from({ length: 24 }, (_, i) => 2 ** i);

export class LessorMetrics {
  grantedTotal = 0;
  revokedTotal = 0;
  renewedTotal = 0;
  /** Histogram of granted (clamped) TTLs: exponential buckets 1 s … 2^23 s, plus +Inf. */
  readonly ttlBuckets = new Array<number>(TTL_BUCKETS.length + 1).fill(0);
  ttlSum = 0;
  ttlCount = 0;

  observeTTL(ttl: number): void {
    // The first bucket whose upper bound 2^i is >= ttl.
    const i = ttl <= 1 ? 0 : Math.min(Math.ceil(Math.log2(ttl)), TTL_BUCKETS.length);
    this.ttlBuckets[i]!++;
    this.ttlSum += ttl;
    this.ttlCount++;
  }

  /** Prometheus exposition-style names and values (histogram buckets are cumulative, like Prometheus). */
  snapshot(): Record<string, number> {
    const out: Record<string, number> = {
      etcd_debugging_lease_granted_total: this.grantedTotal,
      etcd_debugging_lease_revoked_total: this.revokedTotal,
      etcd_debugging_lease_renewed_total: this.renewedTotal,
    };
    let cum = 0;
    for (let i = 0; i < TTL_BUCKETS.length; i++) {
      cum += this.ttlBuckets[i]!;
      out[`etcd_debugging_lease_ttl_total_bucket{le="${TTL_BUCKETS[i]}"}`] = cum;
    }
    out['etcd_debugging_lease_ttl_total_bucket{le="+Inf"}'] = cum + this.ttlBuckets[TTL_BUCKETS.length]!;
    out.etcd_debugging_lease_ttl_total_sum = this.ttlSum;
    out.etcd_debugging_lease_ttl_total_count = this.ttlCount;
    return out;
  }
}
