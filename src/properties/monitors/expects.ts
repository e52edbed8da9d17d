/** Building blocks for the `expect` candidates a violation proposes for its counterexample file. */
import { MICROS_PER_MS, type Micros } from '../../clock/time.js';
import type { TraceKind } from '../../trace/trace.js';
import type { DraftAssertion } from '../draft/format-step.js';
import type { RunView } from './run-view.js';
import type { ExpectCandidate } from './violation.js';

/** The instants worth trying: each given time and a few milliseconds later, all before `before`. */
export function instants(times: readonly Micros[], before: Micros = Infinity): Micros[] {
  const out = new Set<Micros>();
  for (const t of [...times].sort((a, b) => a - b)) {
    for (const d of [0, MICROS_PER_MS, 5 * MICROS_PER_MS, 50 * MICROS_PER_MS])
      if (t + d < before && t + d >= 0) out.add(t + d);
  }
  return [...out].sort((a, b) => a - b);
}

export function expectAt(atUs: Micros, assertion: DraftAssertion): ExpectCandidate {
  return { atUs, assertion };
}

/** `{ lease: L, exists }` at each instant, when the lease has a label. */
export function leaseExists(view: RunView, id: bigint, exists: boolean, at: readonly Micros[]): ExpectCandidate[] {
  const lease = view.labelOf(id);
  return lease === undefined ? [] : at.map((t) => expectAt(t, { form: 'lease-exists', lease, exists }));
}

/** The keys ever attached to the lease (from `lease-attach` events). */
export function attachedKeys(view: RunView, id: bigint): string[] {
  const keys = new Set<string>();
  for (const i of view.ofLease(id)) {
    const e = view.at(i);
    if (e.kind === 'lease-attach') for (const k of e.fields.keys) keys.add(k);
  }
  return [...keys];
}

/** Times at which the given event kind happened for this lease (on any member). */
export function leaseEventTimes(view: RunView, id: bigint, kind: TraceKind): Micros[] {
  return view
    .ofLease(id)
    .filter((i) => view.at(i).kind === kind)
    .map((i) => view.at(i).t);
}
