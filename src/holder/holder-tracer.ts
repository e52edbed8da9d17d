import type { Process } from '../clock/process.js';
import type { Trace, TraceFields, TraceKind } from '../trace/trace.js';

/**
 * The trace events of a holder, under the holder's own name. Belief: `holder-acquired` (it starts its
 * critical section), `holder-renewed`, `holder-deadline` (a deadline holder's self-imposed end of
 * acting), `holder-noticed` (a signal that may mean loss, and what the
 * strategy made of it), `holder-stop` (it stops acting). Truth, from the cluster: `holder-owns` (its lock
 * key was written with its lease), `holder-revoked` (its lease was revoked).
 */
export class HolderTracer {
  readonly on: boolean;

  constructor(
    private readonly trace: Trace,
    readonly holder: string,
    private readonly process: Process,
  ) {
    this.on = trace.enabled;
  }

  emit<K extends TraceKind>(kind: K, lease: bigint | undefined, fields: TraceFields[K]): void {
    if (!this.on) return;
    this.trace.emit<K>({
      t: this.process.now(),
      member: this.holder,
      kind,
      ...(lease !== undefined ? { lease } : {}),
      fields,
    });
  }
}
