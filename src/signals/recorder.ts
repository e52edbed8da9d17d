/** Folds a run's trace through the emitters into signals. */
import type { Micros } from '../clock/time.js';
import type { TraceEvent } from '../trace/trace.js';
import type { Emitter } from './emitter.js';
import { ClientEmitter } from './emitters/client-emitter.js';
import { HolderEmitter } from './emitters/holder-emitter.js';
import { LogEmitter } from './emitters/log-emitter.js';
import { MemberEmitter } from './emitters/member-emitter.js';
import { SpanEmitter } from './emitters/span-emitter.js';
import { TargetEmitter } from './emitters/target-emitter.js';
import type { FamilyDef } from './families.js';
import { SignalStore } from './store.js';

/** The emitters every run has; callers add their own after these. */
export function defaultEmitters(): Emitter[] {
  return [
    new TargetEmitter(),
    new MemberEmitter(),
    new ClientEmitter(),
    new LogEmitter(),
    new SpanEmitter(),
    new HolderEmitter(),
  ];
}

export interface Signals {
  readonly store: SignalStore;
  /** The recorded stretch of virtual time: the run's end. */
  readonly endUs: Micros;
}

export function familiesOf(emitters: readonly Emitter[]): FamilyDef[] {
  return emitters.flatMap((e) => e.families);
}

/** Every event up to `endUs` (all of them by default) through fresh emitters. */
export function recordSignals(
  events: readonly TraceEvent[],
  endUs: Micros,
  emitters: readonly Emitter[] = defaultEmitters(),
): Signals {
  const store = new SignalStore(familiesOf(emitters));
  for (const e of events) {
    if (e.t > endUs) break;
    for (const em of emitters) em.onEvent(e, store);
  }
  for (const em of emitters) em.finish?.(endUs, store);
  return { store, endUs };
}
