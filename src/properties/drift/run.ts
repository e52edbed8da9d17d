import { Cluster, type ClusterConfig } from '../../cluster/cluster.js';
import { leaseRenew } from '../../cluster/server/lease-ops.js';
import type { Micros } from '../../clock/time.js';
import type { TraceEvent } from '../../trace/trace.js';
import { KindTrace } from './kind-trace.js';
import { DRIFT_KINDS } from './measure.js';

/** A disturbance, aimed at whichever member leads when it happens. */
export type Fault =
  | { readonly at: Micros; readonly kind: 'transfer' }
  | { readonly at: Micros; readonly kind: 'crash-leader'; readonly forUs: Micros }
  | { readonly at: Micros; readonly kind: 'pause-leader'; readonly forUs: Micros }
  | { readonly at: Micros; readonly kind: 'pause-follower'; readonly forUs: Micros }
  | { readonly at: Micros; readonly kind: 'partition-leader'; readonly forUs: Micros }
  | { readonly at: Micros; readonly kind: 'stall-leader'; readonly loop: 'raft' | 'apply'; readonly forUs: Micros }
  | { readonly at: Micros; readonly kind: 'clock-jump-leader'; readonly deltaUs: Micros };

export interface DriftRunSpec {
  readonly cluster?: Partial<ClusterConfig>;
  /** Granted through the leader's raftRequest at `at`. */
  readonly leases: readonly { readonly id: bigint; readonly ttl: number; readonly at: Micros }[];
  /** LeaseRenew on member `via` (forwarded to the leader when `via` is a follower). */
  readonly renews?: readonly { readonly id: bigint; readonly at: Micros; readonly via: string }[];
  readonly faults?: readonly Fault[];
  readonly untilUs: Micros;
  /** Extra trace kinds to record beyond what measureDrift reads. */
  readonly kinds?: readonly string[];
}

export interface DriftRun {
  readonly cluster: Cluster;
  readonly events: readonly TraceEvent[];
}

/** Runs a lease schedule with faults on a 3-member cluster, recording the events the drift monitor reads. */
export function runDrift(spec: DriftRunSpec): DriftRun {
  const trace = KindTrace.of(new Set([...DRIFT_KINDS, ...(spec.kinds ?? [])]));
  const c = new Cluster(spec.cluster ?? {}, { trace });
  const at = (t: Micros, fn: () => void): void => void c.sched.at(t, fn);
  for (const l of spec.leases)
    at(l.at, () => c.leader()?.raftRequest({ type: 'LeaseGrant', id: l.id, ttl: l.ttl }, () => {}));
  for (const r of spec.renews ?? []) {
    at(r.at, () => {
      const s = c.server(r.via);
      // Through the member's process: a paused member takes the request when it resumes.
      if (s !== undefined) s.proc.runFromOutside(s.proc.generation, () => leaseRenew(s, r.id, () => {}));
    });
  }
  for (const f of spec.faults ?? []) at(f.at, () => inject(c, f));
  c.runUntil(spec.untilUs);
  return { cluster: c, events: trace.events };
}

function inject(c: Cluster, f: Fault): void {
  const leader = c.leader()?.name;
  if (leader === undefined) return;
  const later = (d: Micros, fn: () => void): void => void c.sched.after(d, fn);
  switch (f.kind) {
    case 'transfer': {
      const i = c.names.indexOf(leader);
      const to = [1, 2].map((d) => c.names[(i + d) % c.names.length]!).find((n) => c.server(n) !== undefined);
      if (to !== undefined) c.transferLeader(to);
      return;
    }
    case 'crash-leader':
      c.crash(leader);
      return later(f.forUs, () => c.restart(leader));
    case 'pause-leader':
      c.pause(leader);
      return later(f.forUs, () => c.resume(leader));
    case 'pause-follower': {
      const follower = c.names.find((n) => n !== leader && c.server(n) !== undefined);
      if (follower === undefined) return;
      c.pause(follower);
      return later(f.forUs, () => c.resume(follower));
    }
    case 'partition-leader':
      c.partition([[leader], c.names.filter((n) => n !== leader)]);
      return later(f.forUs, () => c.heal());
    case 'stall-leader':
      c.stall(leader, f.loop);
      return later(f.forUs, () => c.unstall(leader, f.loop));
    case 'clock-jump-leader':
      c.clockJump(leader, f.deltaUs);
      return;
  }
}
