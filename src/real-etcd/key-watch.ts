/**
 * Observes key deletions on real etcd the way a client would: a watch on the whole keyspace, opened on
 * every member so that a paused or crashed member does not hide one. Each deletion is recorded once, at
 * the first moment any member reported it (the leader applies first, as in the simulation's trace).
 */
import type { Micros } from '../clock/time.js';
import type { EtcdCluster } from './etcd-cluster.js';
import type { EtcdMember } from './etcd-member.js';
import type { RpcWatchEvent } from './etcd-rpc.js';
import { within } from './wall-clock.js';

export interface DeletionSeen {
  readonly key: string;
  readonly revision: number;
  readonly tUs: Micros;
}

export class KeyWatch {
  readonly deletions: DeletionSeen[] = [];
  private readonly seen = new Set<string>();
  private readonly cancels = new Map<string, () => void>();
  /** Highest revision any watch delivered: a reopened watch resumes after it. */
  private lastRevision: number;

  constructor(
    private readonly cluster: EtcdCluster,
    startRevision: number,
    private readonly clock: () => Micros,
  ) {
    this.lastRevision = startRevision - 1;
  }

  /** Opens the watches on every member; resolves once each is registered (so no event reaches us late). */
  async start(timeoutMs: number): Promise<void> {
    await within(
      Promise.all(this.cluster.members.map((m) => this.open(m))),
      timeoutMs,
      'the key watches were not created in time',
    );
  }

  /** (Re)opens the watch on a member, e.g. after it restarts; resolves when etcd has created it. */
  open(m: EtcdMember): Promise<void> {
    this.cancels.get(m.name)?.();
    return new Promise((resolve) => {
      const cancel = m.rpc.watchAll(this.lastRevision + 1, {
        onCreated: resolve,
        onEvents: (events) => this.record(events),
        onEnd: () => {
          if (this.cancels.get(m.name) === cancel) this.cancels.delete(m.name);
        },
      });
      this.cancels.set(m.name, cancel);
    });
  }

  private record(events: readonly RpcWatchEvent[]): void {
    const t = this.clock();
    for (const e of events) {
      this.lastRevision = Math.max(this.lastRevision, e.modRevision);
      const id = `${e.key}@${e.modRevision}`;
      if (e.type !== 'DELETE' || this.seen.has(id)) continue;
      this.seen.add(id);
      this.deletions.push({ key: e.key, revision: e.modRevision, tUs: t });
    }
  }

  close(): void {
    for (const c of this.cancels.values()) c();
    this.cancels.clear();
  }
}
