/**
 * Prometheus' synthetic `up` series, one per scrape target (job etcd for members, job client for
 * client processes): 0 while the process is crashed or stopped, when its other series go stale.
 */
import { CLIENT_KINDS, isKindIn, type TraceEvent, type TraceKind } from '../../trace/trace.js';
import { isMemberName, type Emitter } from '../emitter.js';
import type { FamilyDef } from '../families.js';
import type { SignalStore } from '../store.js';

export const UP = 'up';

const FAMILIES: readonly FamilyDef[] = [
  { name: UP, type: 'gauge', help: 'Whether the scrape target answered its last scrape.', labels: ['job', 'instance'] },
];

const DOWN: ReadonlySet<TraceKind> = new Set(['member-crash', 'member-pause', 'client-pause']);
const BACK: ReadonlySet<TraceKind> = new Set(['member-restart', 'member-resume', 'client-resume']);

export class TargetEmitter implements Emitter {
  readonly families = FAMILIES;
  private readonly known = new Set<string>();

  onEvent(e: TraceEvent, store: SignalStore): void {
    const member = isMemberName(e.member);
    if (!member && !isKindIn(e, CLIENT_KINDS)) return;
    const labels = { job: member ? 'etcd' : 'client', instance: e.member };
    if (!this.known.has(e.member)) {
      this.known.add(e.member);
      store.gauge(UP, labels, e.t, 1);
    }
    if (DOWN.has(e.kind)) store.gauge(UP, labels, e.t, 0);
    else if (BACK.has(e.kind)) store.gauge(UP, labels, e.t, 1);
  }
}
