/**
 * The run's faults as the picture needs them at any instant: since when a member has been paused (its
 * backlog grows from then) and which partition holds. Read once from the whole trace; faults are few.
 */
import type { Micros } from '../clock/time.js';
import { isKindIn, MEMBER_FAULT_KINDS, type MemberFaultKind } from '../trace/trace.js';
import { eventMember, eventTime, type TraceEvent } from './trace-adapter.js';

interface Fault {
  readonly t: Micros;
  readonly kind: MemberFaultKind;
  readonly member: string;
  readonly groups: readonly (readonly string[])[];
}

export class FaultBook {
  private readonly faults: Fault[] = [];

  constructor(events: readonly TraceEvent[]) {
    for (const e of events) {
      if (!isKindIn(e, MEMBER_FAULT_KINDS)) continue;
      const groups = e.kind === 'net-partition' ? e.fields.groups : [];
      this.faults.push({ t: eventTime(e), kind: e.kind, member: eventMember(e), groups });
    }
  }

  /** When `member`'s pause that holds at `t` began, or undefined when it is not paused then. */
  pausedSince(member: string, t: Micros): Micros | undefined {
    let since: Micros | undefined;
    for (const f of this.faults) {
      if (f.t > t) break;
      if (f.member !== member) continue;
      if (f.kind === 'member-pause') since ??= f.t;
      else if (f.kind !== 'net-partition' && f.kind !== 'net-heal') since = undefined;
    }
    return since;
  }

  /** The partition's groups at `t` (empty: none). An endpoint in no group is cut off from all. */
  groupsAt(t: Micros): readonly (readonly string[])[] {
    let groups: readonly (readonly string[])[] = [];
    for (const f of this.faults) {
      if (f.t > t) break;
      if (f.kind === 'net-partition') groups = f.groups;
      else if (f.kind === 'net-heal') groups = [];
    }
    return groups;
  }
}

/** Whether members `a` and `b` can talk under `groups`. */
export function linked(groups: readonly (readonly string[])[], a: string, b: string): boolean {
  if (groups.length === 0) return true;
  const ga = groups.findIndex((g) => g.includes(a));
  return ga >= 0 && ga === groups.findIndex((g) => g.includes(b));
}
