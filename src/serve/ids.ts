/**
 * The 64-bit IDs clients see in response headers: one per member and one for the cluster, stable across runs
 * of the same member names and cluster size (etcd derives them from the peer URLs and the cluster token; we
 * derive them from the member names), never zero, as decimal strings (they exceed 2^53).
 */
import { createHash } from 'node:crypto';

function id64(text: string): string {
  const v = createHash('sha256').update(text).digest().readBigUInt64BE(0);
  return String(v === 0n ? 1n : v);
}

export interface ClusterIds {
  readonly clusterId: string;
  /** Member name (n1 …) to its ID. */
  memberId(name: string): string;
  /** An ID back to the member name, for MemberList and Status' leader. */
  readonly names: readonly string[];
}

export function clusterIds(names: readonly string[]): ClusterIds {
  const ids = new Map(names.map((n) => [n, id64(`lessor-sim member ${n} of ${names.length}`)]));
  return {
    clusterId: id64(`lessor-sim cluster of ${names.length}: ${names.join(',')}`),
    memberId: (name) => ids.get(name) ?? '0',
    names,
  };
}
